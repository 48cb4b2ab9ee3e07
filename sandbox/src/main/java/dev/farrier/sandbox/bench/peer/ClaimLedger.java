package dev.farrier.sandbox.bench.peer;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Every NodeClaim of the stack: when it was first seen and deleted, its NodePool hash, and whether it is being deleted. */
final class ClaimLedger implements AutoCloseable {
  static final String HASH = "karpenter.sh/nodepool-hash";

  record Entry(String name, Instant seen, Instant deleted, boolean deleting, String hash) {}

  private final Map<String, Entry> claims = new ConcurrentHashMap<>();
  private final SharedIndexInformer<GenericKubernetesResource> informer;

  ClaimLedger(KubernetesClient kube) {
    informer = kube.genericKubernetesResources("karpenter.sh/v1", "NodeClaim").inform(new Seen<>(this::note));
  }

  private void note(GenericKubernetesResource claim, boolean deleted) {
    Instant now = Instant.now();
    var meta = claim.getMetadata();
    String hash = meta.getAnnotations() == null ? null : meta.getAnnotations().get(HASH);
    claims.compute(meta.getUid(), (uid, e) -> new Entry(meta.getName(), e == null ? now : e.seen(),
        e != null && e.deleted() != null ? e.deleted() : deleted ? now : null, meta.getDeletionTimestamp() != null, hash));
  }

  List<Entry> live() {
    return claims.values().stream().filter(e -> e.deleted() == null).toList();
  }

  long createdSince(Instant since) {
    return claims.values().stream().filter(e -> !e.seen().isBefore(since)).count();
  }

  @Override
  public void close() {
    informer.close();
  }
}

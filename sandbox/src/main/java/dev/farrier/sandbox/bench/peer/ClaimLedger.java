package dev.farrier.sandbox.bench.peer;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

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

  /** Each claim alive at or created after {@code since}: its name, when it was first seen and deleted, oldest first. */
  String history(Instant since) {
    return claims.values().stream().filter(e -> e.deleted() == null || e.deleted().isAfter(since))
        .sorted(Comparator.comparing(Entry::seen))
        .map(e -> e.name() + " " + offset(since, e.seen()) + ".." + (e.deleted() == null ? "" : offset(since, e.deleted())))
        .collect(Collectors.joining(", "));
  }

  private static String offset(Instant since, Instant at) {
    return String.format(Locale.ROOT, "%+.0f", Duration.between(since, at).toMillis() / 1000.0);
  }

  @Override
  public void close() {
    informer.close();
  }
}

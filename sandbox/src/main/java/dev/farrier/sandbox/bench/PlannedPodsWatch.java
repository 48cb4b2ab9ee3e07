package dev.farrier.sandbox.bench;

import dev.farrier.worker.AddedOrUpdated;
import dev.farrier.model.PlannedPods;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches the NodeClaims and keeps, for each, the pods Farrier created it for ({@link WellKnown#PLANNED_PODS_ANNOTATION}),
 * from its first sight: a claim deleted before the end (an empty node consolidated) still counts.
 */
public final class PlannedPodsWatch implements AutoCloseable {
  private final Map<String, Set<String>> planned = new ConcurrentHashMap<>();
  private final SharedIndexInformer<GenericKubernetesResource> informer;

  public PlannedPodsWatch(KubernetesClient kube) {
    informer = kube.genericKubernetesResources("karpenter.sh/v1", "NodeClaim").inform(new AddedOrUpdated<>(this::note));
  }

  private void note(GenericKubernetesResource claim) {
    List<String> uids = PlannedPods.uids(claim.getMetadata().getAnnotations());
    if (!uids.isEmpty()) {
      planned.putIfAbsent(claim.getMetadata().getName(), Set.copyOf(uids));
    }
  }

  /** The pods' UIDs each claim was created for, by claim name. */
  public Map<String, Set<String>> planned() {
    return Map.copyOf(planned);
  }

  /**
   * For each pod (by UID) some claim was created for, the earliest launch call among those claims: when Farrier's
   * answer to that pod reached the cloud, whichever node the kube-scheduler then bound the pod to. Claims without a
   * launch call are left out.
   */
  public static Map<String, Instant> firstLaunch(Map<String, Set<String>> plannedByClaim, Map<String, Instant> launchByClaim) {
    Map<String, Instant> first = new HashMap<>();
    plannedByClaim.forEach((claim, uids) -> {
      Instant launch = launchByClaim.get(claim);
      if (launch != null) {
        uids.forEach(uid -> first.merge(uid, launch, (a, b) -> a.isBefore(b) ? a : b));
      }
    });
    return first;
  }

  @Override
  public void close() {
    informer.close();
  }
}

package dev.farrier.activities.kube;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A {@link PodEvictor} over a fixed list of pods, for the drain's unit tests: records every eviction and deletion, and
 * refuses the evictions of the pods named in {@code pdbProtected} as a PodDisruptionBudget would.
 */
public final class FakePodEvictor implements PodEvictor {
  private final List<Pod> pods;
  private final Set<String> pdbProtected;
  public final List<String> evicted = new ArrayList<>();
  public final List<String> deleted = new ArrayList<>();

  public FakePodEvictor(List<Pod> pods, Set<String> pdbProtected) {
    this.pods = pods;
    this.pdbProtected = pdbProtected;
  }

  @Override
  public List<Pod> listPodsOnNode(String nodeName) {
    return pods.stream().filter(p -> nodeName.equals(p.getSpec().getNodeName())).toList();
  }

  @Override
  public EvictionOutcome evictPod(Pod pod) throws PdbBlockedException {
    String name = pod.getMetadata().getName();
    if (pdbProtected.contains(name)) {
      throw new PdbBlockedException(pod.getMetadata().getNamespace(), name, pod.getMetadata().getNamespace(), "budget", null, "refused");
    }
    evicted.add(name);
    return EvictionOutcome.EVICTED;
  }

  @Override
  public boolean deletePod(Pod pod, Long gracePeriodSeconds) {
    deleted.add(pod.getMetadata().getName() + (gracePeriodSeconds == null ? "" : "@" + gracePeriodSeconds));
    return true;
  }
}

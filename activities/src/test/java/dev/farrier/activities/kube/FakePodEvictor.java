package dev.farrier.activities.kube;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@link PodEvictor} over a fixed list of pods, for the drain's unit tests: records every eviction and deletion, and
 * refuses the evictions of the pods named in {@code pdbProtected} as a PodDisruptionBudget would. Evicted and deleted
 * pods stay on the node unless {@link #leavingAfter} says how many more lists they take to be gone.
 */
public final class FakePodEvictor implements PodEvictor {
  private final List<Pod> pods;
  private final Set<String> pdbProtected;
  public final List<String> evicted = new ArrayList<>();
  public final List<String> deleted = new ArrayList<>();
  /** Evicted or deleted pods (by UID) and how many more lists still show them. */
  private final Map<String, Integer> leaving = new HashMap<>();
  private int listsUntilGone = -1;

  public FakePodEvictor(List<Pod> pods, Set<String> pdbProtected) {
    this.pods = pods;
    this.pdbProtected = pdbProtected;
  }

  /** An evicted or deleted pod is still listed {@code lists} more times, then gone (as a kubelet removes it). */
  public FakePodEvictor leavingAfter(int lists) {
    listsUntilGone = lists;
    return this;
  }

  @Override
  public List<Pod> listPodsOnNode(String nodeName) {
    List<Pod> listed = pods.stream().filter(p -> nodeName.equals(p.getSpec().getNodeName()))
        .filter(p -> leaving.getOrDefault(p.getMetadata().getUid(), 1) > 0).toList();
    leaving.replaceAll((uid, left) -> left - 1);
    return listed;
  }

  private void leaves(Pod pod) {
    if (listsUntilGone >= 0) {
      leaving.put(pod.getMetadata().getUid(), listsUntilGone);
    }
  }

  @Override
  public EvictionOutcome evictPod(Pod pod) throws PdbBlockedException {
    String name = pod.getMetadata().getName();
    if (pdbProtected.contains(name)) {
      throw new PdbBlockedException(pod.getMetadata().getNamespace(), name, pod.getMetadata().getNamespace(), "budget", null, "refused");
    }
    evicted.add(name);
    leaves(pod);
    return EvictionOutcome.EVICTED;
  }

  @Override
  public boolean deletePod(Pod pod, Long gracePeriodSeconds) {
    deleted.add(pod.getMetadata().getName() + (gracePeriodSeconds == null ? "" : "@" + gracePeriodSeconds));
    leaves(pod);
    return true;
  }
}

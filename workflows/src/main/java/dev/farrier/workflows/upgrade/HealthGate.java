package dev.farrier.workflows.upgrade;

import dev.farrier.workflows.activities.HealthObservation;
import dev.farrier.workflows.activities.HealthObservation.NodeHealth;
import dev.farrier.workflows.activities.HealthObservation.PodHealth;
import dev.farrier.workflows.activities.HealthRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A batch's gate, as a pure decision on what {@code observeHealth} saw: it fails at once when a moved pod crash-loops
 * (or cannot start its image), or, during the soak, restarts; it waits while a new node or a moved pod is not Ready
 * yet; it passes when every new node and every moved pod is Ready.
 */
final class HealthGate {
  /** Container waiting reasons that mean the pod is broken, not slow. */
  static final Set<String> FAILING_WAITS = Set.of("CrashLoopBackOff", "ImagePullBackOff", "ErrImagePull",
      "CreateContainerConfigError", "CreateContainerError", "RunContainerError", "InvalidImageName");
  private static final int SHOWN = 3;

  enum Kind { HEALTHY, WAITING, FAILED }

  record Verdict(Kind kind, String detail) {}

  private HealthGate() {}

  /**
   * @param asked               what {@code seen} answers: with {@code troubledElsewhereOnly}, it holds the workloads'
   *                            pods off the new nodes only when they have restarted or wait, so a pod missing from
   *                            {@code restartsAtSoakStart} had no restart then, and one that shows restarts during the
   *                            soak fails
   * @param restartsAtSoakStart the pods' restart counts when the soak began (null before it): a pod that restarts
   *                            after that fails the gate
   * @param readyOnNewNodes     the gate of one replacement among others in flight ({@code --rolling}): a moved
   *                            workload's pods elsewhere may be moving for another replacement, so only its pods on this
   *                            replacement's new nodes must be Ready. A crash loop or a restart anywhere in the workload
   *                            still fails it
   */
  static Verdict check(HealthRequest asked, HealthObservation seen, Map<String, Integer> restartsAtSoakStart,
      boolean readyOnNewNodes) {
    boolean troubledElsewhereOnly = asked.troubledElsewhereOnly();
    for (PodHealth pod : seen.pods()) {
      if (pod.waitingReason() != null && FAILING_WAITS.contains(pod.waitingReason())) {
        return new Verdict(Kind.FAILED, "pod " + pod.key() + " of " + pod.workload() + " is in " + pod.waitingReason()
            + " (" + pod.restarts() + " restarts)" + (pod.node() == null ? "" : " on node " + pod.node()));
      }
      Integer before = restartsAtSoakStart == null ? null
          : restartsAtSoakStart.getOrDefault(pod.key(), troubledElsewhereOnly ? 0 : null);
      if (before != null && pod.restarts() > before) {
        return new Verdict(Kind.FAILED, "pod " + pod.key() + " of " + pod.workload() + " restarted during the soak ("
            + before + " to " + pod.restarts() + " restarts)" + (pod.node() == null ? "" : " on node " + pod.node()));
      }
    }
    List<String> waiting = new ArrayList<>();
    for (NodeHealth node : seen.nodes()) {
      if (!node.found()) {
        waiting.add("node " + node.name() + " not found");
      } else if (!node.ready()) {
        waiting.add("node " + node.name() + " not Ready");
      }
    }
    Set<String> newNodes = seen.nodes().stream().map(NodeHealth::name).collect(Collectors.toSet());
    List<PodHealth> gated = readyOnNewNodes
        ? seen.pods().stream().filter(p -> newNodes.contains(p.node())).toList()
        : seen.pods();
    for (PodHealth pod : gated) {
      if (!pod.ready()) {
        waiting.add("pod " + pod.key() + " not Ready" + (pod.node() == null ? " (pending)" : ""));
      }
    }
    if (waiting.isEmpty()) {
      return new Verdict(Kind.HEALTHY, seen.nodes().size() + " new node(s) and " + gated.size() + " moved pod(s) Ready");
    }
    String shown = String.join(", ", waiting.subList(0, Math.min(SHOWN, waiting.size())));
    return new Verdict(Kind.WAITING, shown + (waiting.size() > SHOWN ? " and " + (waiting.size() - SHOWN) + " more" : ""));
  }
}

package dev.farrier.planner;

import dev.farrier.model.Requirement;
import dev.farrier.model.Taint;
import dev.farrier.model.Toleration;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The spot / on-demand split of one workload ({@code farrier.dev/on-demand-min}, Karpenter #757): at least a share of
 * its pods on on-demand nodes, decided for each new pod while it waits behind the scheduling gate
 * {@value #GATE}, and restored after a scale-down by evicting one pod at a time so that its replacement is decided
 * again. Pure: the caller reads the pods and applies the decision.
 *
 * <p>A pod counts as on-demand when it is bound to a node labelled {@code karpenter.sh/capacity-type: on-demand} or
 * its own nodeSelector pins it there (pinned, still pending or starting, it will be on-demand: counting it keeps a burst
 * of gated pods from all being pinned). Terminating pods count for nothing. Gated pods are decided oldest first:
 * pinned while the count is short of {@link #required}, released unpinned (the cheapest placement) once it is not.
 *
 * @param required  on-demand pods the workload needs ({@link #required})
 * @param onDemand  on-demand pods once the decision is applied
 * @param pin       gated pods to pin to on-demand and release
 * @param release   gated pods to release as they are
 * @param evict     the one pod to evict so its replacement is decided again, or null
 * @param belowMinimum whether the workload stays short of its minimum after this decision
 * @param count     the count in words ({@code "on-demand 2 of 3 required (30% of 10 replicas)"})
 * @param detail    the decision in words, the count first, for the log
 */
public record CapacitySplit(int required, int onDemand, List<String> pin, List<String> release, String evict, boolean belowMinimum,
    String count, String detail) {
  /** The annotation on a Deployment or StatefulSet: {@code "30%"} of its desired replicas, or a count {@code "2"}. */
  public static final String ANNOTATION = "farrier.dev/on-demand-min";
  /** The scheduling gate the workload's pod template carries, which Farrier removes once it has decided the pod. */
  public static final String GATE = "farrier.dev/capacity-split";

  private static final Pattern PERCENT = Pattern.compile("(\\d{1,3})%");
  private static final Pattern COUNT = Pattern.compile("\\d{1,9}");

  /**
   * An annotation's value: {@code percent} of the desired replicas rounded up, as Kubernetes scales an
   * IntOrString percentage with round-up ({@code maxSurge}), or a count.
   */
  public record Minimum(int value, boolean percent) {
    /** Parses {@code "30%"} (0 to 100) or {@code "2"}; anything else is refused with a message naming the annotation. */
    public static Minimum parse(String text) {
      String t = text == null ? "" : text.trim();
      var percent = PERCENT.matcher(t);
      if (percent.matches()) {
        int p = Integer.parseInt(percent.group(1));
        if (p > 100) {
          throw new IllegalArgumentException(ANNOTATION + " \"" + text + "\": a percentage is at most 100%");
        }
        return new Minimum(p, true);
      }
      if (COUNT.matcher(t).matches()) {
        return new Minimum(Integer.parseInt(t), false);
      }
      throw new IllegalArgumentException(ANNOTATION + " \"" + text + "\" is neither a count (\"2\") nor a percentage (\"30%\")");
    }

    /** On-demand pods needed for {@code replicas} desired: a percentage rounded up, a count as written. */
    public int of(int replicas) {
      return percent ? (int) Math.ceilDiv((long) value * replicas, 100L) : value;
    }

    @Override
    public String toString() {
      return percent ? value + "%" : Integer.toString(value);
    }
  }

  /**
   * One pod of the workload as the split sees it.
   *
   * @param gated            it carries {@link #GATE}
   * @param pinned           its nodeSelector says {@code karpenter.sh/capacity-type: on-demand}
   * @param nodeCapacityType the capacity type of the node it is bound to: null while unbound, "" for a node without it
   * @param terminating      it is being deleted
   * @param keep             never evicted to rebalance: {@code karpenter.sh/do-not-disrupt: "true"}, or its replacement
   *                         would not come back behind the gate (a ReplicaSet whose template lacks it)
   */
  public record Pod(String name, long createdMillis, boolean gated, boolean pinned, String nodeCapacityType, boolean terminating,
      boolean keep) {
    boolean onDemand() {
      return !terminating && (pinned || WellKnown.CAPACITY_ON_DEMAND.equals(nodeCapacityType));
    }

    boolean pending() {
      return !terminating && (gated || nodeCapacityType == null);
    }
  }

  /**
   * Decides the workload's gated pods and whether one pod should be evicted to restore the minimum.
   *
   * @param replicas       the workload's desired replicas ({@code spec.replicas})
   * @param onDemandOffered whether some NodePool offers on-demand capacity to the workload's pods
   *                        ({@link #onDemandOffered}); when none does, gated pods are released unpinned and the
   *                        decision is {@code belowMinimum}
   */
  public static CapacitySplit decide(Minimum minimum, int replicas, List<Pod> pods, boolean onDemandOffered) {
    int required = minimum.of(replicas);
    int onDemand = (int) pods.stream().filter(Pod::onDemand).count();
    List<String> pin = new ArrayList<>();
    List<String> release = new ArrayList<>();
    var gated = pods.stream().filter(p -> p.gated() && !p.terminating())
        .sorted(Comparator.comparingLong(Pod::createdMillis).thenComparing(Pod::name)).toList();
    for (Pod p : gated) {
      if (!p.pinned() && onDemandOffered && onDemand < required) {
        pin.add(p.name());
        onDemand++;
      } else {
        release.add(p.name());
      }
    }
    String evict = null;
    String count = "on-demand " + onDemand + " of " + required + " required (" + minimum + " of " + replicas + " replicas)";
    String detail = count;
    if (onDemand < required && onDemandOffered && gated.isEmpty()) {
      String unsettled = unsettled(pods, replicas);
      if (unsettled != null) {
        detail += "; short, rebalancing waits: " + unsettled;
      } else {
        evict = rebalancingPick(pods);
        detail += evict == null ? "; short, and no pod on spot may be evicted (do-not-disrupt, pinned, or not coming back gated)"
            : "; short: evicting " + evict + " so its replacement is decided again";
      }
    } else if (onDemand < required && !onDemandOffered) {
      detail += "; short: no NodePool offers on-demand capacity to these pods";
    }
    return new CapacitySplit(required, onDemand, List.copyOf(pin), List.copyOf(release), evict, onDemand < required, count, detail);
  }

  /** Why the workload is not settled enough to rebalance (a pod pending, terminating, or fewer pods than replicas), or null. */
  static String unsettled(List<Pod> pods, int replicas) {
    long pending = pods.stream().filter(Pod::pending).count();
    long terminating = pods.stream().filter(Pod::terminating).count();
    long live = pods.stream().filter(p -> !p.terminating()).count();
    if (pending > 0) {
      return pending + " pod(s) pending";
    }
    if (terminating > 0) {
      return terminating + " pod(s) terminating";
    }
    if (live < replicas) {
      return live + " of " + replicas + " pods exist";
    }
    return null;
  }

  /**
   * The pod whose eviction restores the share: bound to a spot node (never reserved capacity or a node Karpenter does
   * not label, such as a managed node group's), not pinned (its replacement could be), not kept; the youngest, so the
   * pods that have run longest stay.
   */
  static String rebalancingPick(List<Pod> pods) {
    return pods.stream()
        .filter(p -> !p.terminating() && !p.pinned() && !p.keep() && WellKnown.CAPACITY_SPOT.equals(p.nodeCapacityType()))
        .max(Comparator.comparingLong(Pod::createdMillis).thenComparing(Pod::name))
        .map(Pod::name).orElse(null);
  }

  /**
   * A NodePool as the split checks it: its template labels, requirements and taints (not its startup taints, which
   * the scheduler does not weigh either).
   */
  public record Pool(String name, Map<String, String> labels, List<Requirement> requirements, List<Taint> taints) {}

  /**
   * Whether some NodePool could launch an on-demand node for a pod with {@code nodeSelector} and {@code tolerations}:
   * the pod's selector plus {@code karpenter.sh/capacity-type: on-demand} against each NodePool's labels and
   * requirements (a NodePool without a capacity-type requirement is on-demand, as Karpenter's default), and the
   * NodePool's taints against the pod's tolerations (a pin is permanent once the gate is gone: pinning a pod to a pool
   * it cannot use would leave it pending for good). Required node affinity is not weighed: a pin that leaves a pod
   * unschedulable shows as the pod's own Unschedulable Event.
   */
  public static boolean onDemandOffered(Map<String, String> nodeSelector, List<Toleration> tolerations, List<Pool> pools) {
    var wanted = new HashMap<>(nodeSelector);
    if (wanted.containsKey(WellKnown.CAPACITY_TYPE_LABEL) && !WellKnown.CAPACITY_ON_DEMAND.equals(wanted.get(WellKnown.CAPACITY_TYPE_LABEL))) {
      return false;
    }
    wanted.put(WellKnown.CAPACITY_TYPE_LABEL, WellKnown.CAPACITY_ON_DEMAND);
    Requirements pod = Requirements.ofLabels(wanted, "pod nodeSelector");
    for (Pool p : pools) {
      if (!Tolerations.toleratesAll(p.taints(), tolerations)) {
        continue;
      }
      Requirements pool = Requirements.of(p.requirements(), "nodepool requirement").and(Requirements.ofLabels(p.labels(), "nodepool label"));
      boolean defaultsToOnDemand = pool.get(WellKnown.CAPACITY_TYPE_LABEL) == LabelConstraint.ANY;
      if (defaultsToOnDemand) {
        pool = pool.and(Requirements.ofLabels(Map.of(WellKnown.CAPACITY_TYPE_LABEL, WellKnown.CAPACITY_ON_DEMAND), "default"));
      }
      if (pool.conflictWith(pod) == null) {
        return true;
      }
    }
    return false;
  }
}

package dev.farrier.planner;

/**
 * One {@code topologySpreadConstraints} entry of a pod. Keys the planner spreads over: zone
 * ({@code topology.kubernetes.io/zone}), hostname ({@code kubernetes.io/hostname}) and capacity type
 * ({@code karpenter.sh/capacity-type}); a constraint on another key is honoured on existing nodes that carry the
 * key and makes new claims unable to take the pod when it is DoNotSchedule.
 *
 * @param topologyKey       the node label whose values are the domains
 * @param maxSkew           the largest allowed difference between the domain with the most matching pods and the one
 *                          with the fewest
 * @param doNotSchedule     {@code whenUnsatisfiable: DoNotSchedule} (a hard rule); false for ScheduleAnyway, which the
 *                          planner tries first and relaxes like a preference
 * @param minDomains        {@code minDomains}, null when unset: while fewer domains are eligible, the global minimum
 *                          counts as 0
 * @param selector          {@code labelSelector}, with {@code matchLabelKeys} already folded in by the activity; counts
 *                          the pods of the pending pod's namespace that it matches
 * @param honorNodeAffinity {@code nodeAffinityPolicy} is Honor (the default): only nodes the pod's nodeSelector and
 *                          required node affinity accept count ({@link SpreadNodeFilter})
 * @param honorNodeTaints   {@code nodeTaintsPolicy} is Honor (the default is Ignore): only nodes whose taints the pod
 *                          tolerates count
 */
public record TopologySpread(String topologyKey, int maxSkew, boolean doNotSchedule, Integer minDomains, PodSelector selector,
    boolean honorNodeAffinity, boolean honorNodeTaints) {
  public TopologySpread {
    selector = selector == null ? PodSelector.NOTHING : selector;
    maxSkew = Math.max(1, maxSkew);
  }

  /** A constraint with the kube-scheduler's default policies: nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore. */
  public TopologySpread(String topologyKey, int maxSkew, boolean doNotSchedule, Integer minDomains, PodSelector selector) {
    this(topologyKey, maxSkew, doNotSchedule, minDomains, selector, true, false);
  }
}

package dev.farrier.planner;

/**
 * One {@code topologySpreadConstraints} entry of a pod. Keys the planner spreads over: zone
 * ({@code topology.kubernetes.io/zone}), hostname ({@code kubernetes.io/hostname}) and capacity type
 * ({@code karpenter.sh/capacity-type}); a constraint on another key is honoured on existing nodes that carry the
 * key and makes new claims unable to take the pod when it is DoNotSchedule.
 *
 * @param topologyKey   the node label whose values are the domains
 * @param maxSkew       the largest allowed difference between the domain with the most matching pods and the one
 *                      with the fewest
 * @param doNotSchedule {@code whenUnsatisfiable: DoNotSchedule} (a hard rule); false for ScheduleAnyway, which the
 *                      planner tries first and relaxes like a preference
 * @param minDomains    {@code minDomains}, null when unset: while fewer domains are eligible, the global minimum
 *                      counts as 0
 * @param selector      {@code labelSelector}, with {@code matchLabelKeys} already folded in by the activity; counts
 *                      the pods of the pending pod's namespace that it matches
 */
public record TopologySpread(String topologyKey, int maxSkew, boolean doNotSchedule, Integer minDomains, PodSelector selector) {
  public TopologySpread {
    selector = selector == null ? PodSelector.NOTHING : selector;
    maxSkew = Math.max(1, maxSkew);
  }
}

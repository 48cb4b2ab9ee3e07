package dev.farrier.bench;

/**
 * The measurements of one workload (mix and size).
 *
 * @param millis     the planning time of each measured run
 * @param nodes      claims in the plan
 * @param unplaced   pods the plan left unschedulable
 * @param antiAffinityBroken claims holding two or more hostname anti-affinity pods ({@link PlanCheck}); 0 when right
 * @param price      the plan's price per hour ({@link PlanPrice})
 * @param bound      the lower bound for the placed pods' summed requests ({@link PriceBound})
 * @param classBound the sounder lower bound that knows each pod lands whole on one node ({@link PodClassBound})
 */
record CaseResult(
    Workloads.Mix mix, int pods, int warmups, Stats millis, int nodes, int unplaced, int antiAffinityBroken, double price,
    PriceBound bound, PodClassBound classBound) {

  double podsPerSecond() {
    return pods / (millis.median() / 1000);
  }

  double ratioToBound() {
    return bound.perHour() == 0 ? Double.NaN : price / bound.perHour();
  }

  double ratioToClassBound() {
    return classBound.perHour() == 0 ? Double.NaN : price / classBound.perHour();
  }
}

package dev.farrier.bench;

import dev.farrier.model.ProvisioningPlan;
import dev.farrier.planner.ClaimNamer;
import dev.farrier.planner.ProvisioningPlanner;
import dev.farrier.planner.ProvisioningSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One workload measured, as the scheduling benchmark measures it ({@link SchedulingBenchmark}, and Farrier's side of
 * {@link PeerBenchmark}): its own snapshot and a new planner per run, warm-up runs, then measured runs until
 * {@code runs} or the time budget is reached; then the last plan checked ({@link PlanCheck}), priced and set against
 * the lower bounds, all on the workload's catalogue. Only {@code ProvisioningPlanner.plan} is timed, on one thread.
 *
 * @param maxSeconds per workload: fewer runs when one run is slow
 */
record SchedulingCase(int runs, int warmups, double maxSeconds) {

  /** Plans {@code pods} for 5 s, so the planner's hot paths are compiled before the first workload is timed. */
  static void warmUpJit(List<BenchPod> pods, Catalog catalog) {
    ProvisioningSnapshot snapshot = PlannerInput.snapshot(pods, catalog);
    long until = System.nanoTime() + 5_000_000_000L;
    do {
      plan(snapshot);
    } while (System.nanoTime() < until);
  }

  CaseResult measure(Workloads.Mix mix, List<BenchPod> pods, Catalog catalog) {
    ProvisioningSnapshot snapshot = PlannerInput.snapshot(pods, catalog);
    System.gc();
    long budgetEnd = System.nanoTime() + (long) (maxSeconds * 1e9);
    int warmed = 0;
    ProvisioningPlan plan = null;
    // A warm-up run that eats more than a quarter of the budget is warm-up enough.
    while (warmed < warmups && System.nanoTime() < budgetEnd - (long) (maxSeconds * 0.75e9)) {
      plan = plan(snapshot);
      warmed++;
    }
    List<Double> millis = new ArrayList<>();
    do {
      long start = System.nanoTime();
      plan = plan(snapshot);
      millis.add((System.nanoTime() - start) / 1e6);
    } while (millis.size() < runs && System.nanoTime() < budgetEnd);
    Set<String> unplaced = plan.unschedulable().stream().map(u -> u.pod().name()).collect(Collectors.toSet());
    long cpu = 0;
    long memory = 0;
    List<long[]> placed = new ArrayList<>();
    for (BenchPod pod : pods) {
      if (!unplaced.contains(pod.name())) {
        cpu += pod.milliCpu();
        memory += pod.memoryBytes();
        placed.add(new long[] {pod.milliCpu(), pod.memoryBytes()});
      }
    }
    int antiAffinityBroken = PlanCheck.verify(plan, pods);
    return new CaseResult(mix, pods.size(), warmed, Stats.of(millis), plan.claims().size(), unplaced.size(),
        antiAffinityBroken, new PlanPrice(catalog.types()).perHour(plan), PriceBound.of(catalog.types(), catalog.kubelet(), cpu, memory),
        PodClassBound.of(catalog.types(), catalog.kubelet(), placed));
  }

  static ProvisioningPlan plan(ProvisioningSnapshot snapshot) {
    return new ProvisioningPlanner().plan(snapshot, "bench", ClaimNamer.standard());
  }
}

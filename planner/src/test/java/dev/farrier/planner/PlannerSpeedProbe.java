package dev.farrier.planner;

import dev.farrier.model.ProvisioningPlan;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Not a test: {@code java ... PlannerSpeedProbe} prints pods per second for the diverse and generic mixes. */
final class PlannerSpeedProbe {
  public static void main(String[] args) {
    List<InstanceTypeView> types = Workloads.catalogue(50);
    for (String mix : List.of("diverse", "generic")) {
      for (int n : new int[] {1000, 5000, 10000}) {
        for (int run = 0; run < 4; run++) {
          List<PodSpecView> pods = mix.equals("diverse") ? Workloads.diverse(n, new Random(run)) : Workloads.generic(n, new Random(run));
          ProvisioningSnapshot snapshot = new ProvisioningSnapshot(pods, List.of(Fixtures.pool("default")), Map.of("default", types), List.of());
          long start = System.nanoTime();
          ProvisioningPlan plan = new ProvisioningPlanner().plan(snapshot, "b", ClaimNamer.standard());
          double seconds = (System.nanoTime() - start) / 1e9;
          double price = plan.claims().stream().mapToDouble(c -> ClaimPrice.perHour(c, types)).sum();
          double perCpu = Double.MAX_VALUE;
          double perGib = Double.MAX_VALUE;
          for (InstanceTypeView t : types) {
            for (OfferingView o : t.offerings()) {
              perCpu = Math.min(perCpu, o.pricePerHour() / (t.capacity().milliCpu() / 1000.0));
              perGib = Math.min(perGib, o.pricePerHour() / (t.capacity().memoryBytes() / (double) Fixtures.GIB));
            }
          }
          double bound = 0;
          for (PodSpecView p : pods) {
            bound += Math.max(p.requests().milliCpu() / 1000.0 * perCpu, p.requests().memoryBytes() / (double) Fixtures.GIB * perGib);
          }
          System.out.printf("%s n=%d run=%d %.0f pods/s claims=%d unschedulable=%d price=%.2f bound=%.2f ratio=%.3f%n", mix, n, run,
              n / seconds, plan.claims().size(), plan.unschedulable().size(), price, bound, price / bound);
        }
      }
    }
  }
}

package dev.farrier.bench;

import dev.farrier.model.Resources;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodeAllocatable;
import java.util.List;
import java.util.Locale;

/**
 * A sound lower bound on the hourly price of any set of nodes that can hold pods requesting {@code milliCpu} and
 * {@code memoryBytes} in total, built from the given instance types.
 *
 * <p>Why it is a lower bound: a node of type {@code t} gives pods {@code cpu_t} and {@code mem_t}, its allocatable
 * (capacity less the VM overhead, kube-reserved and the eviction threshold under the node class's kubelet settings:
 * the EKS AMI's defaults unless given, computed as the planner computes it, {@link NodeAllocatable}), and costs at
 * least {@code p_t}, its cheapest offering in any zone and capacity type. Pods only land where their requests fit in allocatable, so the nodes of any valid placement,
 * counted per type as {@code x_t}, satisfy {@code sum cpu_t x_t >= C} and {@code sum mem_t x_t >= M}. Those counts are a feasible point
 * of the linear program {@code min sum p_t x_t} over real {@code x_t >= 0} under the same two constraints, so its
 * optimum is at most the placement's price. (It is never weaker than pricing all CPU at the cheapest per-vCPU type
 * or all memory at the cheapest per-GiB type: both are the LP with one constraint dropped.)
 *
 * <p>How it is computed exactly: an LP with two constraints has an optimal basic solution with at most two non-zero
 * variables, so the optimum is the cheapest of every type alone (enough of it for both constraints) and every pair
 * of types with both constraints tight and both counts non-negative: 80,000 pairs for 400 types.
 *
 * @param how the optimal fractional fleet, e.g. {@code 12.50 x m7a.large + 3.25 x r7a.large}
 */
record PriceBound(double perHour, String how) {

  static PriceBound of(List<InstanceTypeView> types, long milliCpu, long memoryBytes) {
    return of(types, KubeletSettings.DEFAULTS, milliCpu, memoryBytes);
  }

  static PriceBound of(List<InstanceTypeView> types, KubeletSettings kubelet, long milliCpu, long memoryBytes) {
    if (milliCpu <= 0 && memoryBytes <= 0) {
      return new PriceBound(0, "nothing requested");
    }
    int n = types.size();
    double[] cpu = new double[n];
    double[] mem = new double[n];
    double[] price = new double[n];
    for (int i = 0; i < n; i++) {
      Resources allocatable = NodeAllocatable.of(types.get(i), kubelet);
      cpu[i] = allocatable.milliCpu();
      mem[i] = allocatable.memoryBytes();
      price[i] = BenchCatalog.cheapestPrice(types.get(i));
    }
    double best = Double.POSITIVE_INFINITY;
    String how = "no instance type";
    for (int i = 0; i < n; i++) {
      if (cpu[i] <= 0 || mem[i] <= 0) {
        continue; // a type that gives pods nothing can be in no placement
      }
      double count = Math.max(milliCpu / cpu[i], memoryBytes / mem[i]);
      if (count * price[i] < best) {
        best = count * price[i];
        how = describe(count, types.get(i));
      }
    }
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        double det = cpu[i] * mem[j] - cpu[j] * mem[i];
        if (det == 0 || cpu[i] <= 0 || mem[i] <= 0 || cpu[j] <= 0 || mem[j] <= 0) {
          continue;
        }
        double xi = (milliCpu * mem[j] - cpu[j] * memoryBytes) / det;
        double xj = (cpu[i] * memoryBytes - milliCpu * mem[i]) / det;
        double cost = xi * price[i] + xj * price[j];
        if (xi >= 0 && xj >= 0 && cost < best) {
          best = cost;
          how = describe(xi, types.get(i)) + " + " + describe(xj, types.get(j));
        }
      }
    }
    return new PriceBound(best, how);
  }

  private static String describe(double count, InstanceTypeView type) {
    return String.format(Locale.ROOT, "%.2f x %s", count, type.name());
  }
}

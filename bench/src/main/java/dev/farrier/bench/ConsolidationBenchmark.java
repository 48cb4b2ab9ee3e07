package dev.farrier.bench;

import dev.farrier.planner.DisruptionBudget;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.NodePoolView;
import dev.farrier.planner.PodSpecView;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code make bench}, part two: consolidation (issue 13). A workload of the scheduling benchmark (same pods, same 400
 * instance types) is packed naively ({@link NaivePacking}), then consolidated to a fixed point with Farrier's
 * disruption planner ({@link ConsolidationRounds}); the table reports the price before and after, against the
 * scheduling benchmark's lower bounds, and how many disruptions it took. Every pod must end on exactly one node that
 * holds it, or the run fails.
 */
public final class ConsolidationBenchmark {
  /** The scheduling benchmark's seed: the same pods. */
  private static final long SEED = 42;

  private ConsolidationBenchmark() {}

  public static void main(String[] args) throws Exception {
    List<Integer> sizes = List.of(200, 1_000);
    List<Workloads.Mix> mixes = List.of(Workloads.Mix.GENERIC, Workloads.Mix.DIVERSE);
    String budget = "10%";
    int maxRounds = 2_000;
    Path out = Path.of(".run", "bench", "consolidation.md");
    String label = "";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).map(Integer::parseInt).toList();
        case "--mixes" -> mixes = Arrays.stream(args[++i].split(",")).map(m -> Workloads.Mix.valueOf(m.toUpperCase(Locale.ROOT))).toList();
        case "--budget" -> budget = args[++i];
        case "--max-rounds" -> maxRounds = Integer.parseInt(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        case "--label" -> label = args[++i];
        default -> {
          System.err.println("usage: consolidation-benchmark [--sizes 200,1000] [--mixes generic,diverse] [--budget 10%] "
              + "[--max-rounds N] [--out FILE] [--label TEXT]");
          System.exit(2);
        }
      }
    }
    List<InstanceTypeView> types = BenchCatalog.instanceTypes(400);
    NodePoolView pool = PlannerInput.consolidatingPool(List.of(DisruptionBudget.of(budget)));
    ConsolidationReport report = new ConsolidationReport(List.of(
        "Consolidation benchmark: " + types.size() + " instance types (us-east-1), seed " + SEED + ", budget " + budget
            + ", at most " + maxRounds + " rounds, " + label,
        "Naive placement: pods in arrival order, first fit, onto on-demand nodes of the cheapest general-purpose (m) type"
            + " whose allocatable holds the median pod " + NaivePacking.PODS_PER_NODE + " times",
        "JVM " + System.getProperty("java.vm.version") + ", " + Runtime.getRuntime().availableProcessors()
            + " processors, max heap " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB"));
    report.printHeader();
    for (Workloads.Mix mix : mixes) {
      for (int size : sizes) {
        report.add(measure(mix, size, types, pool, maxRounds));
      }
    }
    report.write(out);
  }

  static ConsolidationResult measure(Workloads.Mix mix, int size, List<InstanceTypeView> types, NodePoolView pool, int maxRounds) {
    List<BenchPod> pods = new Workloads(SEED).pods(mix, size);
    List<PodSpecView> specs = pods.stream().map(PlannerInput::pod).toList();
    InstanceTypeView naive = NaivePacking.type(pods, types);
    long start = System.nanoTime();
    Fleet fleet = NaivePacking.pack(specs, naive);
    double packMillis = (System.nanoTime() - start) / 1e6;
    fleet.verify(pods);
    int nodesBefore = fleet.size();
    double priceBefore = fleet.pricePerHour();

    start = System.nanoTime();
    ConsolidationRounds.Outcome outcome = new ConsolidationRounds(pool, types).run(fleet, maxRounds);
    double wallMillis = (System.nanoTime() - start) / 1e6;
    fleet.verify(pods);

    long cpu = 0;
    long memory = 0;
    List<long[]> requests = new ArrayList<>();
    for (BenchPod pod : pods) {
      cpu += pod.milliCpu();
      memory += pod.memoryBytes();
      requests.add(new long[] {pod.milliCpu(), pod.memoryBytes()});
    }
    return new ConsolidationResult(mix, size, naive.name(), nodesBefore, priceBefore, fleet.size(), fleet.pricePerHour(),
        PriceBound.of(types, cpu, memory), PodClassBound.of(types, requests), outcome, packMillis, wallMillis, fleet.composition());
  }
}

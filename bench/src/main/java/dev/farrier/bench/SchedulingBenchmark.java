package dev.farrier.bench;

import dev.farrier.workflows.activities.ProvisioningPlan;
import dev.farrier.workflows.planner.ClaimNamer;
import dev.farrier.workflows.planner.InstanceTypeView;
import dev.farrier.workflows.planner.ProvisioningPlanner;
import dev.farrier.workflows.planner.ProvisioningSnapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code make bench}, part one: the provisioning planner on Karpenter's scheduling benchmark shape (400 instance
 * types, 100 to 20,000 pods, diverse and generic mixes). Each workload gets its own snapshot and planner, warm-up
 * runs, then measured runs until {@code --runs} or {@code --max-seconds} is reached; the table reports medians and
 * spread, nodes, price, and the price's ratio to a sound lower bound.
 */
public final class SchedulingBenchmark {
  private static final long SEED = 42;

  private SchedulingBenchmark() {}

  public static void main(String[] args) throws Exception {
    List<Integer> sizes = List.of(100, 500, 1_000, 2_000, 5_000, 10_000, 20_000);
    List<Workloads.Mix> mixes = List.of(Workloads.Mix.DIVERSE, Workloads.Mix.GENERIC);
    int runs = 5;
    int warmups = 2;
    double maxSeconds = 60;
    Path out = Path.of(".run", "bench", "scheduling.md");
    String label = "";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).map(Integer::parseInt).toList();
        case "--mixes" -> mixes = Arrays.stream(args[++i].split(",")).map(m -> Workloads.Mix.valueOf(m.toUpperCase(Locale.ROOT))).toList();
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--warmup" -> warmups = Integer.parseInt(args[++i]);
        case "--max-seconds" -> maxSeconds = Double.parseDouble(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        case "--label" -> label = args[++i];
        default -> {
          System.err.println("usage: scheduling-benchmark [--sizes 100,500,...] [--mixes diverse,generic] [--runs N] "
              + "[--warmup N] [--max-seconds S] [--out FILE] [--label TEXT]");
          System.exit(2);
        }
      }
    }
    List<InstanceTypeView> types = BenchCatalog.instanceTypes(400);
    Report report = new Report(List.of(
        "Scheduling benchmark: " + types.size() + " instance types (us-east-1), seed " + SEED + ", " + label,
        "JVM " + System.getProperty("java.vm.version") + ", " + Runtime.getRuntime().availableProcessors()
            + " processors, max heap " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB"));
    warmUpJit(types);
    report.printHeader();
    for (Workloads.Mix mix : mixes) {
      for (int size : sizes) {
        report.add(measure(mix, size, types, runs, warmups, maxSeconds));
      }
    }
    report.write(out);
  }

  /** Compiles the planner's hot paths before the first table row, so small workloads are not timed in the interpreter. */
  private static void warmUpJit(List<InstanceTypeView> types) {
    ProvisioningSnapshot snapshot = PlannerInput.snapshot(new Workloads(SEED + 1).pods(Workloads.Mix.DIVERSE, 1_000), types);
    long until = System.nanoTime() + 5_000_000_000L;
    do {
      plan(snapshot);
    } while (System.nanoTime() < until);
  }

  private static CaseResult measure(Workloads.Mix mix, int size, List<InstanceTypeView> types, int runs, int warmups,
      double maxSeconds) {
    List<BenchPod> pods = new Workloads(SEED).pods(mix, size);
    ProvisioningSnapshot snapshot = PlannerInput.snapshot(pods, types);
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
    return new CaseResult(mix, size, warmed, Stats.of(millis), plan.claims().size(), unplaced.size(), antiAffinityBroken,
        new PlanPrice(types).perHour(plan), PriceBound.of(types, cpu, memory), PodClassBound.of(types, placed));
  }

  private static ProvisioningPlan plan(ProvisioningSnapshot snapshot) {
    return new ProvisioningPlanner().plan(snapshot, "bench", ClaimNamer.standard());
  }
}

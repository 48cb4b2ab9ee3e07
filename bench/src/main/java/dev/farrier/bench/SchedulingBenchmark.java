package dev.farrier.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code make bench}, part one: the provisioning planner on Karpenter's scheduling benchmark shape (400 instance
 * types, 100 to 20,000 pods, diverse and generic mixes). Each workload gets its own snapshot and planner, warm-up
 * runs, then measured runs until {@code --runs} or {@code --max-seconds} is reached ({@link SchedulingCase}); the
 * table reports medians and spread, nodes, price, and the price's ratio to a sound lower bound. {@code --catalog
 * karpenter} and {@code --shape karpenter} plan on Karpenter's own fake catalogue and pod layout instead.
 */
@Command(name = "make bench BENCH_ARGS=\"...\"", sortOptions = false,
    description = "Times the provisioning planner on Karpenter-shaped workloads; prices plans against lower bounds.")
public final class SchedulingBenchmark implements Callable<Integer> {
  private static final long SEED = 42;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  @Option(names = "--sizes", split = ",", paramLabel = "N,N", description = "pod counts (default: ${DEFAULT-VALUE})",
      defaultValue = "100,500,1000,2000,5000,10000,20000")
  List<Integer> sizes;

  @Option(names = "--mixes", split = ",", paramLabel = "MIX", description = "diverse, generic (default: ${DEFAULT-VALUE})",
      defaultValue = "diverse,generic")
  List<Workloads.Mix> mixes;

  @Option(names = "--catalog", paramLabel = "NAME", description = "us-east-1 (400 real types) or karpenter (Karpenter's "
      + "fake instance types, see KarpenterFakeCatalog) (default: ${DEFAULT-VALUE})", defaultValue = Catalog.US_EAST_1)
  String catalog;

  @Option(names = "--shape", paramLabel = "SHAPE", description = "the diverse mix's layout: farrier (interleaved, zonal "
      + "affinity to other pods) or karpenter (blocks, zonal self-affinity) (default: ${DEFAULT-VALUE})", defaultValue = "farrier")
  Workloads.Shape shape;

  @Option(names = "--runs", description = "measured runs per workload (default: ${DEFAULT-VALUE})", defaultValue = "5")
  int runs;

  @Option(names = "--warmup", description = "warm-up runs per workload (default: ${DEFAULT-VALUE})", defaultValue = "2")
  int warmups;

  @Option(names = "--max-seconds", description = "time budget per workload (default: ${DEFAULT-VALUE})", defaultValue = "60")
  double maxSeconds;

  @Option(names = "--out", paramLabel = "FILE", description = "(default: ${DEFAULT-VALUE})", defaultValue = ".run/bench/scheduling.md")
  Path out;

  @Option(names = "--label", paramLabel = "TEXT", description = "names what was measured, e.g. the commit",
      defaultValue = "")
  String label;

  @Spec
  CommandSpec spec;

  public static void main(String[] args) {
    System.exit(new CommandLine(new SchedulingBenchmark()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Catalog chosen;
    try {
      chosen = Catalog.named(catalog);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    Report report = new Report(List.of(
        "Scheduling benchmark: " + chosen.description() + ", " + shape.name().toLowerCase(Locale.ROOT)
            + " shape, seed " + SEED + ", " + label,
        "JVM " + System.getProperty("java.vm.version") + ", " + Runtime.getRuntime().availableProcessors()
            + " processors, max heap " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB"));
    SchedulingCase.warmUpJit(new Workloads(SEED + 1, shape).pods(Workloads.Mix.DIVERSE, 1_000), chosen);
    report.printHeader();
    SchedulingCase timing = new SchedulingCase(runs, warmups, maxSeconds);
    for (Workloads.Mix mix : mixes) {
      for (int size : sizes) {
        report.add(timing.measure(mix, new Workloads(SEED, shape).pods(mix, size), chosen));
      }
    }
    report.write(out);
    return 0;
  }
}

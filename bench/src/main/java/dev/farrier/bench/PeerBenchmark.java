package dev.farrier.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code make bench-peer}: Farrier side by side with Karpenter. tools/bench-peer.sh runs Karpenter's own scheduling
 * benchmark, one process per size, and its priced run (tools/karpenter-peer), leaving per size
 * {@code karpenter-<n>-bench.txt} (the benchmark's output), {@code karpenter-<n>-pods.tsv} and
 * {@code karpenter-<n>-claims.tsv} in {@code --karpenter-dir}, and Farrier's one cold plan of those pods
 * ({@link ColdPlan}, {@code farrier-<n>-cold.txt}). This plans the same pods with Farrier's scheduling benchmark
 * ({@link SchedulingCase}) on Karpenter's catalogue ({@link KarpenterFakeCatalog}) and prints one table: speed, nodes
 * and price of each, the speed ratios (warm and cold), and whether Farrier's price is not higher.
 */
@Command(name = "make bench-peer PEER_ARGS=\"...\"", sortOptions = false,
    description = "Karpenter's scheduling benchmark and Farrier's on the same pods and catalogue, side by side.")
public final class PeerBenchmark implements Callable<Integer> {
  /** Seed of the pods that warm the JIT up (not measured): not the measured pods. */
  private static final long WARM_UP_SEED = 43;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  @Option(names = "--karpenter-dir", required = true, paramLabel = "DIR", description = "Karpenter's outputs, per size")
  Path karpenterDir;

  @Option(names = "--karpenter-version", paramLabel = "TEXT", description = "the Karpenter release and Go that ran it",
      defaultValue = "")
  String karpenterVersion;

  @Option(names = "--karpenter-load", paramLabel = "TEXT", description = "the load average while Karpenter ran",
      defaultValue = "not recorded")
  String karpenterLoad;

  @Option(names = "--sizes", split = ",", paramLabel = "N,N", description = "pod counts (default: ${DEFAULT-VALUE})",
      defaultValue = "1000,2000,5000,10000,20000")
  List<Integer> sizes;

  @Option(names = "--runs", description = "Farrier's measured runs per size (default: ${DEFAULT-VALUE})", defaultValue = "5")
  int runs;

  @Option(names = "--warmup", description = "Farrier's warm-up runs per size (default: ${DEFAULT-VALUE})", defaultValue = "2")
  int warmups;

  @Option(names = "--max-seconds", description = "Farrier's time budget per size (default: ${DEFAULT-VALUE})", defaultValue = "60")
  double maxSeconds;

  @Option(names = "--out", paramLabel = "FILE", description = "(default: ${DEFAULT-VALUE})", defaultValue = ".run/bench/peer.md")
  Path out;

  @Option(names = "--farrier-out", paramLabel = "FILE", description = "Farrier's own scheduling table for the same pods, "
      + "with its lower bounds (default: ${DEFAULT-VALUE})", defaultValue = ".run/bench/peer-farrier.md")
  Path farrierOut;

  @Option(names = "--label", paramLabel = "TEXT", description = "names what was measured, e.g. the commit",
      defaultValue = "")
  String label;

  public static void main(String[] args) {
    System.exit(new CommandLine(new PeerBenchmark()).execute(args));
  }

  @Override
  public Integer call() throws IOException {
    Catalog catalog = Catalog.named(Catalog.KARPENTER);
    // Every Karpenter output is read and checked before Farrier spends minutes measuring.
    List<KarpenterBenchOutput> benches = new ArrayList<>();
    List<KarpenterPlan> plans = new ArrayList<>();
    List<List<BenchPod>> pods = new ArrayList<>();
    List<ColdRun> colds = new ArrayList<>();
    for (int size : sizes) {
      benches.add(KarpenterBenchOutput.parse(Files.readString(file(size, "bench.txt"))));
      KarpenterPlan plan = KarpenterPlan.read(file(size, "claims.tsv"));
      plan.checkPrices(catalog);
      plans.add(plan);
      List<BenchPod> drawn = KarpenterPods.read(file(size, "pods.tsv"));
      if (drawn.size() != size || plan.pods() != size) {
        throw new IllegalStateException("Karpenter's run of " + size + " pods wrote " + drawn.size() + " pods and planned "
            + plan.pods());
      }
      pods.add(drawn);
      colds.add(ColdRun.parse(Files.readString(karpenterDir.resolve("farrier-" + size + "-cold.txt"))));
    }
    String jvm = "JVM " + System.getProperty("java.vm.version") + ", " + Runtime.getRuntime().availableProcessors()
        + " processors, max heap " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB";
    PeerReport peer = new PeerReport(List.of(
        "Side by side with Karpenter " + karpenterVersion + ", " + label,
        "Karpenter: its BenchmarkScheduling<n> (-benchtime 1x: one cold Solve in a fresh process, 5 goroutines), "
            + "cpu: " + benches.getFirst().cpu() + "; priced from a second run of the same pods; load average "
            + karpenterLoad,
        "Farrier: its scheduling benchmark on Karpenter's pods, median of " + runs + " runs after " + warmups
            + " warm-up runs and 5 s of JIT warm-up, one thread, " + jvm + "; load average " + LoadAverage.now()
            + " at its first run; cold: one plan in a fresh JVM per size (ColdPlan), run after Karpenter's runs",
        "Catalogue: " + catalog.description()));
    // Written beside the side-by-side table, not printed into it.
    Report farrier = new Report(List.of("Scheduling benchmark on Karpenter's pods: " + catalog.description() + ", " + label,
        jvm), new PrintStream(OutputStream.nullOutputStream()));
    SchedulingCase.warmUpJit(new Workloads(WARM_UP_SEED, Workloads.Shape.KARPENTER).pods(Workloads.Mix.DIVERSE, 1_000), catalog);
    peer.printHeader();
    SchedulingCase timing = new SchedulingCase(runs, warmups, maxSeconds);
    for (int i = 0; i < sizes.size(); i++) {
      CaseResult measured = timing.measure(Workloads.Mix.DIVERSE, pods.get(i), catalog);
      farrier.add(measured);
      peer.add(new PeerRow(sizes.get(i), benches.get(i), plans.get(i), measured, colds.get(i)));
    }
    peer.note("Load average after Farrier's last run: " + LoadAverage.now());
    farrier.write(farrierOut);
    peer.write(out);
    System.out.println("Farrier's own table for the same pods, with its lower bounds: " + farrierOut);
    return 0;
  }

  private Path file(int size, String suffix) {
    return karpenterDir.resolve("karpenter-" + size + "-" + suffix);
  }
}

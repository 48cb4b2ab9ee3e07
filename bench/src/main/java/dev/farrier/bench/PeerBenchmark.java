package dev.farrier.bench;

import dev.farrier.planner.ProvisioningSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code make bench-peer}: Farrier side by side with Karpenter. For each size tools/bench-peer.sh runs Karpenter's
 * priced run (tools/karpenter-peer: {@code karpenter-<n>-pods.tsv}, {@code karpenter-<n>-claims.tsv}), its own
 * scheduling benchmark ({@code karpenter-<n>-bench.txt}, with the load around it in {@code karpenter-<n>-load.txt}),
 * then at once this with {@code --measure <n>}: Farrier on the very same pods and Karpenter's catalogue
 * ({@link KarpenterFakeCatalog}), one cold plan in this fresh JVM and then the scheduling benchmark's warm runs
 * ({@link SchedulingCase}), into {@code farrier-<n>.txt}. Measuring each size's two sides back to back keeps them
 * under about the same load on a shared machine. Without {@code --measure} this reads every size's files and prints
 * one table: speed, nodes and price of each, the speed ratios (warm and cold), and whether Farrier's price is not
 * higher.
 */
@Command(name = "make bench-peer PEER_ARGS=\"...\"", sortOptions = false,
    description = "Karpenter's scheduling benchmark and Farrier's on the same pods and catalogue, side by side.")
public final class PeerBenchmark implements Callable<Integer> {
  /** Seed of the pods that warm the JIT up (not measured): not the measured pods. */
  private static final long WARM_UP_SEED = 43;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  @Option(names = "--sizes", split = ",", paramLabel = "N,N", description = "pod counts: sizes Karpenter's benchmark "
      + "defines (default: ${DEFAULT-VALUE})", defaultValue = "1000,2000,5000,10000,20000")
  List<Integer> sizes;

  @Option(names = "--runs", description = "Farrier's measured runs per size (default: ${DEFAULT-VALUE})", defaultValue = "5")
  int runs;

  @Option(names = "--warmup", description = "Farrier's warm-up runs per size (default: ${DEFAULT-VALUE})", defaultValue = "2")
  int warmups;

  @Option(names = "--max-seconds", description = "Farrier's time budget per size (default: ${DEFAULT-VALUE})", defaultValue = "60")
  double maxSeconds;

  @Option(names = "--out", paramLabel = "FILE", description = "the table (default: ${DEFAULT-VALUE})",
      defaultValue = ".run/bench/peer.md")
  Path out;

  @Option(names = "--label", paramLabel = "TEXT", description = "names what was measured, e.g. the commit",
      defaultValue = "")
  String label;

  @Option(names = "--karpenter-dir", required = true, paramLabel = "DIR", description = "the runs' files, per size")
  Path dir;

  @Option(names = "--karpenter-version", paramLabel = "TEXT", description = "the Karpenter release and Go that ran it",
      defaultValue = "")
  String karpenterVersion;

  @Option(names = "--measure", paramLabel = "N", description = "measure Farrier on Karpenter's N pods into "
      + "farrier-N.txt, instead of printing the table")
  Integer measure;

  public static void main(String[] args) {
    System.exit(new CommandLine(new PeerBenchmark()).execute(args));
  }

  @Override
  public Integer call() throws IOException {
    Catalog catalog = Catalog.named(Catalog.KARPENTER);
    if (measure != null) {
      FarrierRun run = measure(KarpenterPods.read(file("karpenter", measure, "pods.tsv")), catalog);
      Files.writeString(farrierFile(measure), run.format() + "\n");
      System.out.println(run.format());
      return 0;
    }
    List<PeerRow> rows = new ArrayList<>();
    for (int size : sizes) {
      rows.add(row(size, catalog));
    }
    PeerReport peer = new PeerReport(List.of(
        "Side by side with Karpenter " + karpenterVersion + ", " + label,
        "Karpenter: its BenchmarkScheduling<n> (-benchtime 1x: one cold Solve in a fresh process, 5 goroutines), "
            + "cpu: " + rows.getFirst().karpenter().cpu() + "; priced from a second run of the same pods",
        "Farrier: right after, the same pods in a fresh JVM (" + System.getProperty("java.vm.version") + ", "
            + Runtime.getRuntime().availableProcessors() + " processors, max heap "
            + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB): one cold plan, then 5 s of JIT warm-up and the "
            + "scheduling benchmark's runs (warm-up runs, then the median of the measured ones), one thread",
        "Catalogue: " + catalog.description()));
    peer.printHeader();
    rows.forEach(peer::add);
    peer.write(out);
    return 0;
  }

  /** One cold plan first, then the JIT warmed up on other pods, then the benchmark's warm-up and measured runs. */
  private FarrierRun measure(List<BenchPod> pods, Catalog catalog) {
    double loadStart = LoadAverage.oneMinute();
    ProvisioningSnapshot snapshot = PlannerInput.snapshot(pods, catalog);
    long start = System.nanoTime();
    SchedulingCase.plan(snapshot);
    double coldMillis = (System.nanoTime() - start) / 1e6;
    SchedulingCase.warmUpJit(new Workloads(WARM_UP_SEED, Workloads.Shape.KARPENTER).pods(Workloads.Mix.DIVERSE, 1_000),
        catalog);
    CaseResult warm = new SchedulingCase(runs, warmups, maxSeconds).measure(Workloads.Mix.DIVERSE, pods, catalog);
    return new FarrierRun(coldMillis, warm, new LoadAverage.Span(loadStart, LoadAverage.oneMinute()));
  }

  /** One size's files read and checked against each other and against the catalogue. */
  private PeerRow row(int size, Catalog catalog) throws IOException {
    KarpenterBenchOutput bench = KarpenterBenchOutput.parse(Files.readString(file("karpenter", size, "bench.txt")));
    KarpenterPlan plan = KarpenterPlan.read(file("karpenter", size, "claims.tsv"));
    plan.checkPrices(catalog);
    FarrierRun farrier = FarrierRun.parse(Files.readString(farrierFile(size)));
    if (plan.pods() != size || bench.pods() != size || farrier.warm().pods() != size) {
      throw new IllegalStateException("the runs of " + size + " pods planned " + bench.pods() + " (Karpenter's benchmark), "
          + plan.pods() + " (Karpenter priced) and " + farrier.warm().pods() + " (Farrier) pods");
    }
    return new PeerRow(size, bench, plan, LoadAverage.Span.parse(Files.readString(file("karpenter", size, "load.txt"))),
        farrier);
  }

  private Path farrierFile(int size) {
    return dir.resolve("farrier-" + size + ".txt");
  }

  private Path file(String side, int size, String suffix) {
    return dir.resolve(side + "-" + size + "-" + suffix);
  }
}

package dev.farrier.sandbox.bench.peer;

import dev.farrier.catalog.InstanceTypeCatalog;
import dev.farrier.model.GoDurations;
import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.sandbox.bench.BenchOptions;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code make bench-peer}'s live half: Farrier and Karpenter's own controller (its kwok provider) on the same
 * workloads, each on a fresh local stack of the same kind, back to back, and one side-by-side table. Per pod count:
 * scale-out of the mix, then consolidation after scaling it to 30%; with the first pod count also the drift of a fleet
 * of one pod per node. Both get the same catalogue ({@link KwokCatalogue}), NodePool (but its nodeClassRef), seed,
 * control-plane rate and node registration delay.
 */
@Command(name = "peer-system-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Farrier and Karpenter's kwok controller on the same workloads, side by side.")
public final class PeerSystemBenchmark implements Callable<Integer> {
  @Option(names = "--pods", split = ",", defaultValue = "1000,5000", description = "pods of the mix per run (default ${DEFAULT-VALUE})")
  List<Integer> sizes;

  @Option(names = "--drift-nodes", defaultValue = "200", description = "nodes of the drift fleet, with the first pod count; 0 skips it (default ${DEFAULT-VALUE})")
  int driftNodes;

  @Option(names = "--seed", defaultValue = "1", description = "picks the mix's requests (default ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--consolidate-after", defaultValue = "30s", converter = GoDuration.class,
      description = "the NodePool's consolidateAfter (default ${DEFAULT-VALUE})")
  Duration consolidateAfter;

  @Option(names = "--budget", defaultValue = "10%", description = "the NodePool's disruption budget, nodes (default ${DEFAULT-VALUE})")
  String budget;

  @Option(names = "--settle-window", defaultValue = "90s", converter = GoDuration.class,
      description = "how long a fleet must stay unchanged to count as settled (default ${DEFAULT-VALUE})")
  Duration settleWindow;

  @Option(names = "--timeout", defaultValue = "30m", converter = GoDuration.class, description = "bound of each phase (default ${DEFAULT-VALUE})")
  Duration timeout;

  @Option(names = "--controllers", split = ",", defaultValue = "farrier,karpenter", description = "which to run (default ${DEFAULT-VALUE})")
  List<String> controllers;

  @Option(names = "--run-dir", defaultValue = ".run/bench/peer-system", description = "the stacks' files (default ${DEFAULT-VALUE})")
  Path runDir;

  @Option(names = "--out", defaultValue = ".run/bench/peer-system.md", description = "the report (default ${DEFAULT-VALUE})")
  Path out;

  @CommandLine.Mixin
  BenchOptions options;

  /** Picocli converter for Go-style durations ("30s", "2m", "1h30m"), read as NodePools read them. */
  public static final class GoDuration implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      Long millis = GoDurations.toMillis(value);
      if (millis == null) {
        throw new CommandLine.TypeConversionException("not a duration: '" + value + "' (e.g. 30s, 2m, 1h30m)");
      }
      return Duration.ofMillis(millis);
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new PeerSystemBenchmark()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    var catalogue = KwokCatalogue.of(InstanceTypeCatalog.load(InstanceTypeCatalog.DEFAULT_REGION));
    List<String> lines = new ArrayList<>(header(catalogue));
    for (int i = 0; i < sizes.size(); i++) {
      var run = new PeerRun.Sizes(sizes.get(i), i == 0 ? driftNodes : 0, seed, consolidateAfter, budget, settleWindow, timeout);
      var results = runBoth(runDir.resolve(Integer.toString(run.pods())).toAbsolutePath(), catalogue, run, options.qps, controllers, System.out);
      lines.add("");
      lines.add(String.format(Locale.ROOT, "### %d pods%s (load average before: %s)", run.pods(),
          run.driftNodes() > 0 ? ", drift of " + run.driftNodes() + " nodes" : "", loadAverage()));
      lines.add("");
      lines.addAll(PeerSystemReport.table(results));
      lines.add("");
      lines.addAll(PeerSystemReport.figures(results, options.figures, run.pods()));
      Files.createDirectories(out.toAbsolutePath().getParent());
      Files.write(out, lines);
    }
    lines.forEach(System.out::println);
    System.out.println("written to " + out);
    return 0;
  }

  /** Both controllers, one after the other, each on a fresh stack; Farrier first. */
  static List<PeerRun.Result> runBoth(Path dir, KwokCatalogue catalogue, PeerRun.Sizes sizes, int qps, List<String> which, PrintStream log)
      throws Exception {
    return runBoth(dir, catalogue, sizes, qps, which, log, false);
  }

  /**
   * As {@link #runBoth(Path, KwokCatalogue, PeerRun.Sizes, int, List, PrintStream)}; {@code together} runs Karpenter's
   * stack beside Farrier's instead of after it, for the small run of {@code make test}, whose figures are not the
   * benchmark's: that takes about a third off its time, and each controller's figures then include the other's load on
   * the machine. When Farrier's run fails, Karpenter's is waited for (its phases are bounded) before the failure is
   * thrown, so no stack outlives the call.
   */
  static List<PeerRun.Result> runBoth(Path dir, KwokCatalogue catalogue, PeerRun.Sizes sizes, int qps, List<String> which, PrintStream log,
      boolean together) throws Exception {
    List<PeerRun.Result> results = new ArrayList<>();
    var memoryLimit = OptionalLong.empty();
    FutureTask<PeerRun.Result> beside = null;
    if (which.contains("farrier")) {
      try (var farrier = FarrierPeer.start(dir.resolve("farrier"), qps)) {
        memoryLimit = farrier.memoryLimitBytes();
        if (together && which.contains("karpenter")) {
          var limit = memoryLimit;
          beside = new FutureTask<>(() -> karpenter(dir, catalogue, sizes, qps, limit, log));
          Thread.ofPlatform().name("karpenter-peer").start(beside);
        }
        results.add(PeerRun.run(farrier, catalogue, sizes, log));
      } catch (Exception | Error e) {
        if (beside != null) {
          try {
            beside.get();
          } catch (ExecutionException | RuntimeException other) {
            e.addSuppressed(other);
          } catch (InterruptedException other) {
            Thread.currentThread().interrupt();
            e.addSuppressed(other);
          }
        }
        throw e;
      }
    }
    if (beside != null) {
      try {
        results.add(beside.get());
      } catch (ExecutionException e) {
        throw e.getCause() instanceof Exception cause ? cause : e;
      }
    } else if (which.contains("karpenter")) {
      results.add(karpenter(dir, catalogue, sizes, qps, memoryLimit, log));
    }
    return results;
  }

  private static PeerRun.Result karpenter(Path dir, KwokCatalogue catalogue, PeerRun.Sizes sizes, int qps, OptionalLong memoryLimit,
      PrintStream log) throws Exception {
    SandboxEnvironment.recreate(dir.resolve("karpenter"));
    // The simulated cloud's kubelet registers a node about 2 s after its launch; Karpenter's provider gets the same.
    try (var karpenter = KarpenterPeer.start(dir.resolve("karpenter"), catalogue, qps, memoryLimit, "2s")) {
      return PeerRun.run(karpenter, catalogue, sizes, log);
    }
  }

  private List<String> header(KwokCatalogue catalogue) {
    return List.of("# Farrier and Karpenter's controller, side by side " + options.label, "",
        String.format(Locale.ROOT, "Each on a fresh local stack (kube-apiserver, controller-manager and scheduler at %d QPS, kwok), one after the "
            + "other, on the same workloads (seed %d) and catalogue (%d instance types of categories c, m, r, generation 5+, us-east-1, "
            + "on-demand and spot prices), NodePool `WhenEmptyOrUnderutilized` after %ds, budget %s; settled = unchanged for %ds. Machine: %d cores.",
            options.qps, seed, catalogue.types().size(), consolidateAfter.toSeconds(), budget, settleWindow.toSeconds(),
            Runtime.getRuntime().availableProcessors()));
  }

  private static String loadAverage() {
    try {
      return String.join(" ", List.of(Files.readString(Path.of("/proc/loadavg")).split(" ")).subList(0, 3));
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }
}

package dev.farrier.sandbox.bench;

import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.sandbox.UpgradeScenario;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code make bench}: a fleet rolled to the next AMI release on the sandbox, as a whole system (local stack, one Farrier
 * worker JVM, simulated cloud). Four runs, each on a fresh stack unless it follows on the same fleet:
 * <ul>
 *   <li>{@code drift}: {@code --nodes} nodes under a budget of {@code --budget}; the EC2NodeClass is switched and the fleet
 *       drifts. The makespan (first replacement started to last one closed) against the ideal, {@code ceil(nodes / slots)}
 *       times the median replacement's time, and how many replacements ran at once over time;</li>
 *   <li>{@code upgrade}: the same fleet rolled back by {@code farrier upgrade --wait} (a canary of one, then batches of the
 *       budget's slots, no soak), against its batches times the median replacement;</li>
 *   <li>{@code rolling}: the same, with {@code farrier upgrade --rolling} (each slot refilled once its replacement has
 *       passed its own gate), against a perfect batched upgrade's batches ({@link FleetReport#upgradeBatches}) times the
 *       median replacement;</li>
 *   <li>{@code concurrent}: {@code --concurrent} nodes under a budget of 100%, all replaced at once by one worker.</li>
 * </ul>
 * Every run also reads each replacement's Temporal history back: events and bytes per replacement and its launch, and
 * the workflow tasks' schedule-to-start and execution times.
 */
@Command(name = "fleet-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Fleet drift, farrier upgrade and many concurrent replacements on the sandbox.")
public final class FleetBenchmark implements Callable<Integer> {
  private static final String CLUSTER = "bench";
  private static final String REPLACEMENT = "NodeReplacementWorkflow";

  @Option(names = "--nodes", defaultValue = "500", description = "fleet size of the drift and upgrade runs (default ${DEFAULT-VALUE})")
  int nodes;

  @Option(names = "--budget", defaultValue = "10%", description = "the NodePool's disruption budget, a count or a percentage (default ${DEFAULT-VALUE})")
  String budget;

  @Option(names = "--concurrent", defaultValue = "200", description = "fleet size of the concurrent run (default ${DEFAULT-VALUE})")
  int concurrent;

  @Option(names = "--runs", split = ",", defaultValue = "drift,upgrade,concurrent", description = "which runs: drift, upgrade, rolling (farrier upgrade --rolling), concurrent (default ${DEFAULT-VALUE})")
  List<String> runs;

  @Option(names = "--run-dir", defaultValue = ".run/bench/fleet", description = "the stacks' files (default ${DEFAULT-VALUE})")
  Path runDir;

  @Option(names = "--out", defaultValue = ".run/bench/fleet.md", description = "the report (default ${DEFAULT-VALUE})")
  Path out;


  @CommandLine.Mixin
  BenchOptions options;

  private final PrintStream log = System.out;

  public static void main(String[] args) {
    System.exit(new CommandLine(new FleetBenchmark()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    var report = new FleetReport(options.label, options.figures.toAbsolutePath());
    if (runs.contains("drift") || runs.contains("upgrade") || runs.contains("rolling")) {
      try (var env = stack("drift"); var fleet = new BenchFleet(env, nodes, Duration.ofMinutes(40))) {
        provision(fleet, budget);
        // Each run rolls the fleet to the other release than the one it is on.
        String release = BenchFleet.FIRST_RELEASE;
        if (runs.contains("drift")) {
          release = other(release);
          report.add(drift(env, fleet, "drift", release));
        }
        if (runs.contains("upgrade")) {
          release = other(release);
          report.add(upgrade(env, fleet, release, false));
        }
        if (runs.contains("rolling")) {
          release = other(release);
          report.add(upgrade(env, fleet, release, true));
        }
      }
    }
    if (runs.contains("concurrent")) {
      try (var env = stack("concurrent"); var fleet = new BenchFleet(env, concurrent, Duration.ofMinutes(40))) {
        provision(fleet, "100%");
        report.add(drift(env, fleet, "concurrent", BenchFleet.NEXT_RELEASE).withSlots(concurrent));
      }
    }
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.write(out, report.lines());
    report.lines().forEach(log::println);
    log.println("written to " + out);
    return 0;
  }

  private SandboxEnvironment stack(String name) throws Exception {
    Path dir = SandboxEnvironment.recreate(runDir.resolve(name).toAbsolutePath());
    log.println("== " + name + ": starting the local stack in " + dir);
    var env = SandboxEnvironment.start(dir, CLUSTER, 0, options.qps);
    env.startWorker();
    return env;
  }

  private void provision(BenchFleet fleet, String fleetBudget) {
    Instant start = Instant.now();
    log.printf("== provisioning %d nodes (budget %s)%n", fleet.replicas(), fleetBudget);
    fleet.provision(fleetBudget);
    var readyWaits = Percentiles.of(fleet.nodeReadyMillisSince(start));
    log.printf(Locale.ROOT, "   %d nodes Ready in %.0fs (registered to Ready: median %.1fs, p99 %.1fs)%n", fleet.replicas(),
        Duration.between(start, Instant.now()).toMillis() / 1000.0, readyWaits.median() / 1000, readyWaits.p99() / 1000);
  }

  /** Switches the fleet's class to {@code release} and measures the roll. */
  private FleetReport.Roll drift(SandboxEnvironment env, BenchFleet fleet, String name, String release) {
    var oldImages = new HashSet<>(fleet.imagesByNode().values());
    Instant switched = fleet.switchTo(release);
    log.printf("== %s: EC2NodeClass switched to %s at %s%n", name, release, switched);
    var samples = fleet.awaitRolledOff(oldImages, switched, new ArrayList<>());
    Instant rolled = Instant.now();
    var replacements = closedReplacements(env, switched);
    log.printf("   rolled in %.0fs, %d replacements%n", Duration.between(switched, rolled).toMillis() / 1000.0, replacements.size());
    return new FleetReport.Roll(name, fleet.replicas(), budget, FleetReport.slots(budget, fleet.replicas()), switched, rolled,
        replacements, samples, 0, fleet.nodeReadyMillisSince(switched));
  }

  private static String other(String release) {
    return release.equals(BenchFleet.FIRST_RELEASE) ? BenchFleet.NEXT_RELEASE : BenchFleet.FIRST_RELEASE;
  }

  /**
   * Rolls the fleet to {@code release} with {@code farrier upgrade --wait}: a canary of one, then batches of the
   * budget's slots, or with {@code rolling} ({@code --rolling}) up to that many in flight, each refilled as soon as its
   * replacement has passed its gate.
   */
  private FleetReport.Roll upgrade(SandboxEnvironment env, BenchFleet fleet, String release, boolean rolling) {
    var oldImages = new HashSet<>(fleet.imagesByNode().values());
    int slots = FleetReport.slots(budget, fleet.replicas());
    Path farrier = Path.of("bin", "farrier").toAbsolutePath();
    List<String> command = new ArrayList<>(List.of(farrier.toString(), "upgrade", "--nodepool", BenchFleet.NODE_POOL,
        "--ami", release, "--canary", "1", "--batch-size", Integer.toString(slots), "--soak", "0s", "--gate-timeout", "15m",
        "--wait", "--timeout", "2h", "-o", "json", "--by", "fleet-benchmark"));
    if (rolling) {
      command.add("--rolling");
    }
    log.println("== upgrade: " + String.join(" ", command.subList(1, command.size())));
    Instant started = Instant.now();
    // The nodes on the new images are sampled while the command waits, as in the drift run.
    var running = CompletableFuture.supplyAsync(() -> new UpgradeScenario(env, Duration.ofHours(2)).run(farrier, command, log));
    List<BenchFleet.Sample> samples = new ArrayList<>();
    fleet.sampleWhile(() -> !running.isDone(), oldImages, started, samples);
    var run = running.join();
    var result = UpgradeScenario.json(run.stdout());
    if (run.exitCode() != 0 || !"Succeeded".equals(result.get("outcome"))) {
      throw new IllegalStateException("farrier upgrade ended " + run.exitCode() + ": " + run.stdout());
    }
    fleet.awaitRolledOff(oldImages, started, samples);
    Instant rolled = Instant.now();
    int batches = ((Number) result.get("batches")).intValue();
    log.printf(Locale.ROOT, "   %d batches in %.0fs%n", batches, run.took().toMillis() / 1000.0);
    // A rolling upgrade's ideal is a perfect batched one's: the canary, then the rest a full set of slots at a time.
    int ideal = rolling ? FleetReport.upgradeBatches(fleet.replicas(), slots) : batches;
    return new FleetReport.Roll(rolling ? "upgrade-rolling" : "upgrade", fleet.replicas(), budget, slots, started, rolled,
        closedReplacements(env, started), samples, ideal, fleet.nodeReadyMillisSince(started));
  }

  private static List<WorkflowRuns.Run> closedReplacements(SandboxEnvironment env, Instant since) {
    // Visibility lags the close by a moment; wait until no replacement started since is listed as running.
    dev.farrier.sandbox.Await.until("replacements closed in visibility", Duration.ofMinutes(2),
        () -> WorkflowRuns.runningSince(env.temporal(), REPLACEMENT, since) == 0, () -> "");
    return WorkflowRuns.closedSince(env.temporal(), REPLACEMENT, since);
  }
}

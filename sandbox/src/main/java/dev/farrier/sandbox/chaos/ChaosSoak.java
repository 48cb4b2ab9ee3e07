package dev.farrier.sandbox.chaos;

import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.model.WellKnown;
import dev.farrier.sandbox.FarrierProcess;
import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.sandbox.bench.peer.PeerSystemBenchmark;
import dev.farrier.sandbox.chaos.ChaosPlan.Step;
import dev.farrier.sandbox.chaos.ChaosPlan.Timeline;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code make chaos SEED=N DURATION=60m}: the sandbox with two workers started from the chart and the
 * {@link ChaosFleet}, the {@link ChaosPlan} of the seed played on it (churn and faults side by side), the
 * {@link InvariantMonitor} reading the API server and the cloud every second from outside the workers, then the faults
 * stopped and the fleet watched until it settles. Writes the {@link ChaosReport} and exits 0 only with no violation
 * and a settled fleet.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true,
    description = "Plays seeded churn and faults on a sandbox fleet and checks Farrier's promises every second.")
public final class ChaosSoak implements Callable<Integer> {
  @Option(names = "--seed", defaultValue = "1", description = "the plan's seed (default ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--duration", defaultValue = "60m", converter = PeerSystemBenchmark.GoDuration.class,
      description = "how long the churn and faults last (default ${DEFAULT-VALUE})")
  Duration duration;

  @Option(names = "--size", defaultValue = "20", description = "about how many nodes each of the three NodePools holds (default ${DEFAULT-VALUE})")
  int size;

  @Option(names = "--settle-timeout", defaultValue = "15m", converter = PeerSystemBenchmark.GoDuration.class,
      description = "how long the fleet may take to settle after the last fault before the soak fails (default ${DEFAULT-VALUE})")
  Duration settleTimeout;

  @Option(names = "--run-dir", description = "where the stack, the logs and the report go (default .run/chaos/seed-<seed>)")
  Path runDir;

  /** The garbage collection the workers run in the soak: every 5 s, a grace of 20 s. */
  static final Map<String, String> WORKER_SETTINGS = SandboxEnvironment.FAST_GC;
  /**
   * How long an instance may live without its NodeClaim: the garbage collection's grace (20 s), plus the longest EC2
   * fault (60 s, its terminate refused meanwhile), plus the longest process fault (45 s, Temporal hung or no leader),
   * plus a minute for retries and a new leader; faults of two timelines may overlap.
   */
  static final Duration ORPHAN_GRACE = Duration.ofMinutes(3);

  /** How many NodeClaims may be launching beyond what the pending pods and running replacements need. */
  static final int RUNAWAY_MARGIN = 3;
  /** How long launching NodeClaims may exceed that before it is a runaway: a node registering before its pods bind. */
  static final Duration RUNAWAY_WINDOW = Duration.ofSeconds(60);

  /**
   * The most live Farrier instances the fleet may ever need: each NodePool at its largest (the one-pod-a-node
   * Deployments at full size, the consolidating one with every batch and api pod on a node of its own) plus a
   * replacement for every node its budget lets be disrupted at once and a surge of the same again.
   */
  static int instanceCeiling(ChaosFleet fleet) {
    int consolidating = fleet.size() * 3 / 2 + Math.max(2, fleet.size() * 2 / 5) + 1;
    int budgets = ChaosFleet.BUDGETS.values().stream().mapToInt(Integer::intValue).sum();
    return 2 * fleet.size() + consolidating + 2 * budgets;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new ChaosSoak()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Path dir = (runDir == null ? Path.of(".run", "chaos", "seed-" + seed) : runDir).toAbsolutePath();
    var result = run(new Options(seed, duration, size, settleTimeout), dir, System.out);
    return result.passed() ? 0 : 1;
  }

  /** What a soak is asked to do. */
  public record Options(long seed, Duration duration, int size, Duration settleTimeout) {
    /**
     * The short variant {@code make test} plays ({@code ChaosSoakIT}): seed 1, five minutes, about 18 nodes, settled within
     * 8 minutes (so the test stays within the suite's 15-minute bound).
     */
    public static final Options SHORT = new Options(1, Duration.ofMinutes(5), 6, Duration.ofMinutes(8));
  }

  /** One played step: when it started and ended, relative to the soak's start, and what it did (or why it failed). */
  public record Played(Step step, Duration started, Duration ended, String outcome, boolean failed) {}

  /** How a soak ended: the report's figures. */
  public record Result(Options options, ChaosPlan plan, List<Played> played, List<Violation> violations,
      Map<String, Integer> checks, int observations, int unobserved, Duration faultsEnded, Duration settleTime, boolean settled,
      List<String> unsettled, List<String> rollouts, int peakInstances, Path report) {
    public boolean passed() {
      return violations.isEmpty() && settled;
    }
  }

  /** Plays a soak in {@code dir} (emptied first) and writes its report there. */
  public static Result run(Options options, Path dir, PrintStream out) throws Exception {
    SandboxEnvironment.recreate(dir);
    ChaosPlan plan = ChaosPlan.of(options.seed(), options.duration());
    String cluster = "chaos-" + options.seed();
    out.printf("== chaos soak: seed %d, %s of churn and faults, %d steps %s%n", options.seed(), options.duration(), plan.steps().size(),
        plan.counts());
    try (var env = SandboxEnvironment.start(dir, cluster, 0)) {
      out.printf("   Temporal %s (UI %s), kube-apiserver %s, logs %s%n", env.stack().temporalAddress(), env.stack().temporalUiUrl(),
          env.stack().apiServerUrl(), dir.resolve("logs"));
      for (int i = 0; i < 2; i++) {
        var worker = env.startWorker(WORKER_SETTINGS);
        out.println("   worker-" + (i + 1) + " pid " + worker.pid());
      }
      var cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(env.cloudDir()).withCluster(cluster));
      String zone = cloud.network().subnets().getFirst().zone();
      Set<String> foreign = Set.of(
          cloud.registerForeignInstance("m5.large", zone, Map.of("Name", "someone-elses")).id(),
          cloud.registerForeignInstance("m5.large", zone, Map.of(WellKnown.TAG_CLUSTER, cluster, WellKnown.TAG_OWNER, "someone-else",
              WellKnown.TAG_NODECLAIM, "not-farriers")).id());
      var fleet = new ChaosFleet(env.kube(), cluster, options.size());
      fleet.apply();
      Instant applied = Instant.now();
      out.printf("== fleet applied (%d nodes a NodePool, 3 NodePools); foreign instances %s%n", options.size(), foreign);
      awaitUp(fleet, Duration.ofMinutes(15));
      out.printf("   %d pods running after %ds%n", fleet.running(), Duration.between(applied, Instant.now()).toSeconds());
      return new Soak(env, cloud, fleet, plan, options, foreign, dir, out).play();
    }
  }

  private static void awaitUp(ChaosFleet fleet, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<String> left = fleet.notUp();
    while (!left.isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the fleet did not come up within " + timeout + "; not running: " + left);
      }
      Thread.sleep(2000);
      left = fleet.notUp();
    }
  }

  /** One soak in progress: its timelines, its monitor thread and its journal. */
  private static final class Soak {
    private final SandboxEnvironment env;
    private final SimulatedCloud cloud;
    private final ChaosFleet fleet;
    private final ChaosPlan plan;
    private final Options options;
    private final Set<String> foreign;
    private final Path dir;
    private final PrintStream out;
    private final List<Played> played = Collections.synchronizedList(new ArrayList<>());
    private final List<String> rollouts = Collections.synchronizedList(new ArrayList<>());
    private final AtomicReference<Thread> rollout = new AtomicReference<>();
    private Instant start;

    Soak(SandboxEnvironment env, SimulatedCloud cloud, ChaosFleet fleet, ChaosPlan plan, Options options, Set<String> foreign,
        Path dir, PrintStream out) {
      this.env = env;
      this.cloud = cloud;
      this.fleet = fleet;
      this.plan = plan;
      this.options = options;
      this.foreign = foreign;
      this.dir = dir;
      this.out = out;
    }

    Result play() throws Exception {
      var actions = new ChaosActions(env, cloud, fleet, this::startRollout);
      var monitor = new InvariantMonitor(env.cluster(), foreign, ORPHAN_GRACE, ChaosFleet.BUDGETS, RUNAWAY_MARGIN, RUNAWAY_WINDOW,
          instanceCeiling(fleet));
      try (var watcher = new Watcher(monitor)) {
        start = Instant.now();
        watcher.start();
        List<Thread> timelines = new ArrayList<>();
        for (Timeline timeline : Timeline.values()) {
          List<Step> steps = plan.steps().stream().filter(s -> s.kind().timeline() == timeline).toList();
          timelines.add(Thread.ofPlatform().name("chaos-" + timeline.name().toLowerCase()).start(() -> playAll(actions, steps)));
        }
        for (Thread timeline : timelines) {
          timeline.join();
        }
        Duration faultsEnded = since();
        List<String> restoreFailures = actions.restoreAll();
        out.printf("== +%ds the last fault is over%s; waiting for the fleet to settle (at most %s)%n", faultsEnded.toSeconds(),
            restoreFailures.isEmpty() ? "" : " (not restored: " + restoreFailures + ")", options.settleTimeout());
        var settling = watcher.awaitSettled(options.settleTimeout(), this::rolloutRunning);
        Duration settleTime = Duration.between(start.plus(faultsEnded), settling.at());
        watcher.stop();
        var result = new Result(options, plan, List.copyOf(played), watcher.violations(), watcher.checks(), watcher.observations(),
            watcher.unobserved(), faultsEnded, settleTime, settling.left().isEmpty(), settling.left(), List.copyOf(rollouts),
            watcher.peakInstances(), dir.resolve("report.md"));
        new ChaosReport(env, cloud).write(result, start);
        out.printf("== %s: %d violations, %d observations (%d missed while a component was down), settled %s after the last"
            + " fault; report %s%n", result.passed() ? "PASSED" : "FAILED", result.violations().size(), result.observations(),
            result.unobserved(), result.settled() ? "in " + settleTime.toSeconds() + "s" : "NOT (" + settling.left() + ")",
            result.report());
        return result;
      }
    }

    private Duration since() {
      return Duration.between(start, Instant.now());
    }

    private void playAll(ChaosActions actions, List<Step> steps) {
      for (Step step : steps) {
        try {
          Duration wait = step.at().minus(since());
          if (wait.isPositive()) {
            Thread.sleep(wait);
          }
          Duration began = since();
          String outcome;
          boolean failed = false;
          try {
            outcome = actions.play(step);
          } catch (IOException | RuntimeException e) {
            outcome = "failed: " + e;
            failed = true;
          }
          var entry = new Played(step, began, since(), outcome, failed);
          played.add(entry);
          out.printf("   +%4ds %-18s %s%n", began.toSeconds(), step.kind(), outcome);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }

    /** Starts {@code farrier upgrade} of the rolled NodePool to its other release in the background, unless one runs. */
    private String startRollout() {
      if (rolloutRunning()) {
        return "not started: the previous farrier upgrade still runs";
      }
      String target = ChaosFleet.other(fleet.release(ChaosFleet.ROLLED));
      Path farrier = Path.of("bin", "farrier").toAbsolutePath();
      List<String> command = List.of(farrier.toString(), "upgrade", "--nodepool", ChaosFleet.ROLLED, "--ami", target, "--by", "chaos-soak",
          "--batch-size", "2", "--soak", "10s", "--gate-timeout", "10m", "--wait", "--timeout", "60m", "-o", "json");
      Duration began = since();
      // A daemon: the CLI is adopted by the stack, which ends it with the soak should it still wait then.
      rollout.set(Thread.ofPlatform().daemon().name("chaos-rollout").start(() -> {
        String outcome;
        try (var log = new PrintStream(Files.newOutputStream(dir.resolve("logs").resolve("rollout-" + began.toSeconds() + ".log")), true,
            java.nio.charset.StandardCharsets.UTF_8)) {
          var run = FarrierProcess.run(env, farrier, command, Duration.ofMinutes(70), log, () -> "");
          outcome = "exit " + run.exitCode() + " " + run.stdout().replaceAll("\\s+", " ").trim();
        } catch (IOException | RuntimeException e) {
          outcome = "failed: " + e;
        }
        rollouts.add("+" + began.toSeconds() + "s to " + target + " ended +" + since().toSeconds() + "s: " + outcome);
      }));
      return "farrier upgrade --nodepool " + ChaosFleet.ROLLED + " --ami " + target + " started";
    }

    private boolean rolloutRunning() {
      Thread running = rollout.get();
      return running != null && running.isAlive();
    }

    /**
     * The monitor's thread: one observation a second from its own clients, whose calls time out in a few seconds so a
     * hung API server or Temporal costs missed observations, never a stuck monitor.
     */
    private final class Watcher implements AutoCloseable {
      private final InvariantMonitor monitor;
      private final KubernetesClient kube;
      private final WorkflowServiceStubs stubs;
      private final ObservationCollector collector;
      private final List<Violation> violations = Collections.synchronizedList(new ArrayList<>());
      private final AtomicBoolean running = new AtomicBoolean(true);
      private final AtomicReference<Observation> last = new AtomicReference<>();
      private Thread thread;
      private int observations;
      private int unobserved;
      private int peakInstances;

      Watcher(InvariantMonitor monitor) throws IOException {
        this.monitor = monitor;
        Config config = Config.fromKubeconfig(Files.readString(env.stack().kubeconfig()));
        config.setRequestTimeout(5000);
        config.setConnectionTimeout(3000);
        this.kube = new KubernetesClientBuilder().withConfig(config).build();
        this.stubs = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder()
            .setTarget(env.stack().temporalAddress()).setRpcTimeout(Duration.ofSeconds(5)).build());
        this.collector = new ObservationCollector(kube, cloud, WorkflowClient.newInstance(stubs), env.cluster(), Clock.systemUTC());
      }

      void start() {
        collector.start();
        thread = Thread.ofPlatform().name("chaos-monitor").start(this::loop);
      }

      private void loop() {
        while (running.get()) {
          long began = System.nanoTime();
          observeOnce(false);
          long left = 1000 - (System.nanoTime() - began) / 1_000_000;
          if (left > 0) {
            try {
              Thread.sleep(left);
            } catch (InterruptedException e) {
              return;
            }
          }
        }
      }

      /** One observation checked; with {@code settledCheck} against the settled fleet too. Null when none could be read. */
      private synchronized List<Violation> observeOnce(boolean settledCheck) {
        Observation now;
        try {
          now = collector.collect();
        } catch (RuntimeException e) {
          unobserved++;
          return null;
        }
        observations++;
        last.set(now);
        peakInstances = Math.max(peakInstances, (int) now.instances().stream().filter(Observation.CloudInstance::live).count());
        List<Violation> found = settledCheck ? monitor.settled(now) : monitor.observe(now);
        List<Violation> real = settledCheck ? found.stream().filter(v -> v.invariant() != Violation.Invariant.SETTLED).toList() : found;
        real.forEach(v -> {
          violations.add(v);
          out.println("   VIOLATION " + v);
        });
        return found;
      }

      record Settling(Instant at, List<String> left) {}

      /** Observes until the fleet is settled (nothing pending, nothing running, every node on its class's images). */
      Settling awaitSettled(Duration timeout, java.util.function.BooleanSupplier rolloutRunning) throws InterruptedException {
        running.set(false);
        thread.join();
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> left = List.of("not observed yet");
        while (System.nanoTime() < deadline) {
          List<Violation> found = observeOnce(true);
          if (found != null) {
            left = new ArrayList<>(found.stream().filter(v -> v.invariant() == Violation.Invariant.SETTLED)
                .map(v -> v.subject() + " " + v.detail()).toList());
            try {
              left.addAll(new TargetCheck(kube).offTarget(last.get().pods()));
            } catch (RuntimeException e) {
              unobserved++;
              left.add("fleet unread: " + e.getMessage());
            }
            if (rolloutRunning.getAsBoolean()) {
              left.add("farrier upgrade still waiting");
            }
            if (left.isEmpty()) {
              return new Settling(Instant.now(), List.of());
            }
          }
          Thread.sleep(1000);
        }
        return new Settling(Instant.now(), left);
      }

      void stop() throws InterruptedException {
        running.set(false);
        if (thread != null) {
          thread.join();
        }
      }

      List<Violation> violations() {
        return List.copyOf(violations);
      }

      Map<String, Integer> checks() {
        Map<String, Integer> checks = new LinkedHashMap<>();
        monitor.checksByInvariant().forEach((invariant, count) -> checks.put(invariant.name(), count));
        checks.put("pod deletions not judged (learnt from a re-list of the watch)", monitor.unjudgedPodDeletions());
        return checks;
      }

      int observations() {
        return observations;
      }

      int unobserved() {
        return unobserved;
      }

      int peakInstances() {
        return peakInstances;
      }

      @Override
      public void close() throws InterruptedException {
        stop();
        collector.close();
        stubs.shutdownNow();
        kube.close();
      }
    }
  }
}

package dev.farrier.bench;

import dev.farrier.workflows.WorkflowIds;
import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.PodRef;
import dev.farrier.workflows.reconciler.ClusterReconcilerWorkflow;
import dev.farrier.workflows.reconciler.PendingPods;
import dev.farrier.workflows.reconciler.ReconcilerInput;
import dev.farrier.model.ReconcilerSettings;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import dev.farrier.workflows.testing.Fixtures;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.History;
import io.temporal.api.testservice.v1.UnlockTimeSkippingRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.TestServiceStubs;
import io.temporal.serviceclient.TestServiceStubsOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code make bench}: the long-running reconciler's history over a day of simulated time, on Temporal's time-skipping
 * test server with the workflow tests' fake activities. Every 10 s (the default interval) a disruption round plans a
 * fleet of {@code --nodes} (one decision per node, with the reasons a real planner writes, of which a round gets back only
 * those to disrupt, as the planning activity answers it), a pending pod arrives every 30 s ({@link Arrivals}) and
 * becomes a batch, and once an hour a node is deleted (a replacement child). The table gives the runs the day took
 * (continue-as-new) and each run's events and bytes: what the server stores for the entity.
 */
@Command(name = "reconciler-day-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
    description = "The reconciler's history over a simulated day.")
public final class ReconcilerDayBenchmark implements Callable<Integer> {
  @Option(names = "--nodes", split = ",", defaultValue = "100,1000,5000", description = "fleet sizes (default ${DEFAULT-VALUE})")
  List<Integer> fleets;

  @Option(names = "--hours", defaultValue = "24", description = "simulated hours (default ${DEFAULT-VALUE})")
  int hours;

  @Option(names = "--out", defaultValue = ".run/bench/reconciler.md", description = "the report (default ${DEFAULT-VALUE})")
  Path out;

  @Option(names = "--label", defaultValue = "", description = "the commit measured, for the report's first line")
  String label;

  /** One run's history: events and bytes, and the disruption rounds it held. */
  record RunCost(int events, long bytes) {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new ReconcilerDayBenchmark()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    List<String> lines = new ArrayList<>(List.of("The reconciler over " + hours + " h of simulated time (time-skipping test "
        + "server, fake activities; a round every 10 s, a pod every 30 s, a delete an hour). " + label, "",
        "| fleet nodes | rounds | runs | events per run median / max | bytes per run median / max | bytes per round | history bytes per day | took s | test-server locks released |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"));
    for (int nodes : fleets) {
      long start = System.nanoTime();
      var rounds = new AtomicLong();
      var released = new AtomicLong();
      List<RunCost> runs = day(nodes, rounds, released);
      double took = (System.nanoTime() - start) / 1e9;
      var events = Stats.of(runs.stream().map(r -> (double) r.events()).toList());
      var bytes = Stats.of(runs.stream().map(r -> (double) r.bytes()).toList());
      long total = runs.stream().mapToLong(RunCost::bytes).sum();
      String row = String.format(Locale.ROOT, "| %d | %d | %d | %.0f / %.0f | %.0f / %.0f | %.0f | %d | %.0f | %d |", nodes, rounds.get(),
          runs.size(), events.median(), events.max(), bytes.median(), bytes.max(), total / (double) rounds.get(),
          Math.round(total * 24.0 / hours), took, released.get());
      System.out.println(row);
      lines.add(row);
    }
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.write(out, lines);
    lines.forEach(System.out::println);
    return 0;
  }

  private List<RunCost> day(int nodes, AtomicLong rounds, AtomicLong released) throws InterruptedException {
    List<CandidateDecision> decisions = IntStream.range(0, nodes).mapToObj(i -> new CandidateDecision(
        "default-" + Integer.toString(36 * 36 * 36 + i, 36), "ip-10-0-" + (i / 250) + "-" + (i % 250) + ".ec2.internal", "default",
        false, "not drifted (image, subnet, security groups and requirements match); not empty: " + (1 + i % 9)
            + " pod(s); not underutilized: its pods would need 1 new node(s)")).toList();
    try (var test = new FarrierTestEnvironment()) {
      test.planning.onPlanDisruption(request -> {
        long round = rounds.incrementAndGet();
        var commands = round % 360 == 0 ? List.of(Fixtures.command("default-gone-" + round, "delete", null)) : List.<dev.farrier.model.DisruptionCommand>of();
        var plan = new DisruptionPlan(round, commands, decisions);
        // As the planning activity answers (DisruptionConditionsIT): a round gets only what it disrupts.
        return request.purpose() == dev.farrier.workflows.activities.PlanDisruptionRequest.Purpose.ROUND ? plan.commandsOnly() : plan;
      });
      test.worker.registerWorkflowImplementationTypes(ArrivalsImpl.class);
      test.start();
      String id = WorkflowIds.reconciler(Fixtures.CLUSTER);
      ClusterReconcilerWorkflow reconciler = test.newWorkflow(ClusterReconcilerWorkflow.class, id);
      var first = WorkflowClient.start(reconciler::run, new ReconcilerInput(Fixtures.CLUSTER, ReconcilerSettings.DEFAULTS, 1, List.of()));
      // The pods arrive from a workflow whose result the test waits for, so the server skips time between them.
      try (var locks = new LeakedLocks(test.env)) {
        int arrivals = (int) (Duration.ofHours(hours).toSeconds() / ARRIVAL_EVERY.toSeconds());
        test.newWorkflow(Arrivals.class, "bench-arrivals").arrive(id, 0, arrivals);
        released.addAndGet(locks.released());
      }
      return chain(test.client(), id, first.getRunId());
    }
  }

  /** Signals the reconciler a pending pod every {@link #ARRIVAL_EVERY}: pods {@code from} to {@code to} (excluded). */
  @WorkflowInterface
  public interface Arrivals {
    @WorkflowMethod
    void arrive(String reconcilerId, int from, int to);
  }

  static final Duration ARRIVAL_EVERY = Duration.ofSeconds(30);
  /** Arrivals per run of {@link Arrivals}: its history stays small (a signal and a timer each). */
  static final int ARRIVALS_PER_RUN = 500;

  public static final class ArrivalsImpl implements Arrivals {
    @Override
    public void arrive(String reconcilerId, int from, int to) {
      var reconciler = Workflow.newExternalWorkflowStub(ClusterReconcilerWorkflow.class, reconcilerId);
      for (int i = from; i < to; i++) {
        if (i - from == ARRIVALS_PER_RUN) {
          Workflow.continueAsNew(reconcilerId, i, to);
        }
        reconciler.podsPending(new PendingPods(List.of(Fixtures.pod("p" + i))));
        Workflow.sleep(ARRIVAL_EVERY);
      }
    }
  }

  /**
   * Works around a defect of Temporal's time-skipping test server: a child workflow that completes after its parent's
   * run has ended (the reconciler continues as new with provisioning batches in flight, which go along) takes a
   * time-skipping lock "unlocked by the parent", and no parent run ever releases it; from then on simulated time runs
   * at the wall clock's pace and a day would take a day (temporalio/sdk-java issue 1540, open: "Test service time
   * skipping broken in a child workflow" when the parent continues as new). While the day is played, each time
   * simulated time advanced less than {@link #STALLED} in each of two {@link #CHECK_EVERY}s of wall time in a row, one
   * such lock is released through the test service.
   */
  static final class LeakedLocks implements AutoCloseable {
    static final Duration CHECK_EVERY = Duration.ofSeconds(2);
    static final Duration STALLED = Duration.ofSeconds(10);

    private final TestServiceStubs stubs;
    private final Thread watchdog;
    private final AtomicLong released = new AtomicLong();

    LeakedLocks(TestWorkflowEnvironment env) {
      stubs = TestServiceStubs.newServiceStubs(TestServiceStubsOptions.newBuilder()
          .setChannel(env.getWorkflowServiceStubs().getRawChannel()).validateAndBuildWithDefaults());
      watchdog = Thread.ofPlatform().daemon().name("leaked-locks").start(() -> {
        long start = env.currentTimeMillis();
        long last = start;
        int stalled = 0;
        try {
          for (long check = 1; ; check++) {
            Thread.sleep(CHECK_EVERY);
            long now = env.currentTimeMillis();
            if (check % 15 == 0) {
              System.err.printf(Locale.ROOT, "  %.1f simulated hours, %d test-server locks released%n", (now - start) / 3.6e6,
                  released.get());
            }
            // Twice in a row, so a round that merely took long (its lock is a live one) is never released.
            stalled = now - last < STALLED.toMillis() ? stalled + 1 : 0;
            if (stalled == 2) {
              stubs.blockingStub().unlockTimeSkipping(UnlockTimeSkippingRequest.getDefaultInstance());
              released.incrementAndGet();
              stalled = 0;
            }
            last = now;
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    }

    long released() {
      return released.get();
    }

    @Override
    public void close() throws InterruptedException {
      watchdog.interrupt();
      watchdog.join();
      stubs.shutdownNow();
    }
  }

  /** The runs of {@code workflowId} from {@code runId} on, following each continue-as-new. */
  private static List<RunCost> chain(WorkflowClient client, String workflowId, String runId) {
    List<RunCost> runs = new ArrayList<>();
    String next = runId;
    while (next != null) {
      History history = client.fetchHistory(workflowId, next).getHistory();
      runs.add(new RunCost(history.getEventsCount(), history.getSerializedSize()));
      var last = history.getEvents(history.getEventsCount() - 1);
      next = last.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW
          ? last.getWorkflowExecutionContinuedAsNewEventAttributes().getNewExecutionRunId() : null;
    }
    return runs;
  }
}

package dev.farrier.bench;

import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.activities.CandidateDecision;
import dev.farrier.workflows.activities.DisruptionPlan;
import dev.farrier.workflows.model.PodRef;
import dev.farrier.workflows.reconciler.ClusterReconcilerWorkflow;
import dev.farrier.workflows.reconciler.PendingPods;
import dev.farrier.workflows.reconciler.ReconcilerInput;
import dev.farrier.workflows.reconciler.ReconcilerSettings;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import dev.farrier.workflows.testing.Fixtures;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.History;
import io.temporal.client.WorkflowClient;
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
 * those to disrupt, as the planning activity answers it), a pending pod
 * arrives every 30 s and becomes a batch, and once an hour a node is deleted (a replacement child). The table gives the
 * runs the day took (continue-as-new) and each run's events and bytes: what the server stores for the entity.
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
        "| fleet nodes | rounds | runs | events per run median / max | bytes per run median / max | bytes per round | history bytes per day | took s |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|"));
    for (int nodes : fleets) {
      long start = System.nanoTime();
      var rounds = new AtomicLong();
      List<RunCost> runs = day(nodes, rounds);
      double took = (System.nanoTime() - start) / 1e9;
      var events = Stats.of(runs.stream().map(r -> (double) r.events()).toList());
      var bytes = Stats.of(runs.stream().map(r -> (double) r.bytes()).toList());
      long total = runs.stream().mapToLong(RunCost::bytes).sum();
      String row = String.format(Locale.ROOT, "| %d | %d | %d | %.0f / %.0f | %.0f / %.0f | %.0f | %d | %.0f |", nodes, rounds.get(),
          runs.size(), events.median(), events.max(), bytes.median(), bytes.max(), total / (double) rounds.get(),
          Math.round(total * 24.0 / hours), took);
      System.out.println(row);
      lines.add(row);
    }
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.write(out, lines);
    lines.forEach(System.out::println);
    return 0;
  }

  private List<RunCost> day(int nodes, AtomicLong rounds) {
    List<CandidateDecision> decisions = IntStream.range(0, nodes).mapToObj(i -> new CandidateDecision(
        "default-" + Integer.toString(36 * 36 * 36 + i, 36), "ip-10-0-" + (i / 250) + "-" + (i % 250) + ".ec2.internal", "default",
        false, "not drifted (image, subnet, security groups and requirements match); not empty: " + (1 + i % 9)
            + " pod(s); not underutilized: its pods would need 1 new node(s)")).toList();
    try (var test = new FarrierTestEnvironment()) {
      test.planning.onPlanDisruption(request -> {
        long round = rounds.incrementAndGet();
        var commands = round % 360 == 0 ? List.of(Fixtures.command("default-gone-" + round, "delete", null)) : List.<dev.farrier.workflows.activities.DisruptionCommand>of();
        var plan = new DisruptionPlan(round, commands, decisions);
        // As the planning activity answers (DisruptionConditionsIT): a round gets only what it disrupts.
        return request.purpose() == dev.farrier.workflows.activities.PlanDisruptionRequest.Purpose.ROUND ? plan.commandsOnly() : plan;
      });
      test.start();
      String id = WorkflowIds.reconciler(Fixtures.CLUSTER);
      ClusterReconcilerWorkflow reconciler = test.newWorkflow(ClusterReconcilerWorkflow.class, id);
      var first = WorkflowClient.start(reconciler::run, new ReconcilerInput(Fixtures.CLUSTER, ReconcilerSettings.DEFAULTS, 1, List.of()));
      var running = test.existing(ClusterReconcilerWorkflow.class, id);
      for (int half = 0; half < hours * 120; half++) {
        running.podsPending(new PendingPods(List.of(Fixtures.pod("p" + half))));
        test.env.sleep(Duration.ofSeconds(30));
      }
      return chain(test.client(), id, first.getRunId());
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

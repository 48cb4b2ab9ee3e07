package dev.farrier.sandbox.bench;

import dev.farrier.localstack.LocalStack;
import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityOptions;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.WorkerFactory;
import io.temporal.workflow.Async;
import io.temporal.workflow.ChildWorkflowOptions;
import io.temporal.workflow.Promise;
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
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code make bench BENCH_ONLY=temporal}: what the local stack's Temporal dev server costs per history event, with
 * the SQLite pragmas the stack uses and with SQLite's defaults. Alone on the machine (no Kubernetes, no Farrier), one
 * parent workflow asks for {@code --workflows} children in one workflow task, each runs {@code --steps} times an
 * activity and a 1 s timer (about the shape of a replacement), one worker in this JVM. Measured: the time until all
 * are done, how long after the parent's ask each child was started (from the parent's history), the events written
 * (every history), and the server's CPU time (its process, before and after).
 */
@Command(name = "temporal-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
    description = "The local Temporal dev server's cost per history event, by SQLite journal.")
public final class TemporalBenchmark implements Callable<Integer> {
  private static final String QUEUE = "temporal-bench";

  @Option(names = "--workflows", defaultValue = "200", description = "children asked for at once (default ${DEFAULT-VALUE})")
  int workflows;

  @Option(names = "--steps", defaultValue = "15", description = "activity and 1 s timer pairs per child (default ${DEFAULT-VALUE})")
  int steps;

  @Option(names = "--run-dir", defaultValue = ".run/bench/temporal", description = "the servers' files (default ${DEFAULT-VALUE})")
  Path runDir;

  @Option(names = "--out", defaultValue = ".run/bench/temporal.md", description = "the report (default ${DEFAULT-VALUE})")
  Path out;

  @Option(names = "--label", defaultValue = "", description = "the commit measured, for the report's first line")
  String label;

  /** The journals compared: the local stack's pragmas, then none (SQLite's rollback journal, full sync). */
  record Journal(String name, List<String> pragmas) {}

  static final List<Journal> JOURNALS = List.of(
      new Journal("local stack: " + String.join(", ", LocalStack.TEMPORAL_SQLITE_PRAGMAS), LocalStack.TEMPORAL_SQLITE_PRAGMAS),
      new Journal("SQLite defaults (rollback journal, full sync)", List.of()));

  /** One journal's figures. */
  record Result(Journal journal, double seconds, Percentiles startDelays, long events, double serverCpuSeconds) {
    double eventsPerCpuSecond() {
      return serverCpuSeconds <= 0 ? 0 : events / serverCpuSeconds;
    }
  }

  @WorkflowInterface
  public interface FanOut {
    @WorkflowMethod
    int run(int children, int steps);
  }

  @WorkflowInterface
  public interface Steps {
    @WorkflowMethod
    int run(int steps);
  }

  @ActivityInterface
  public interface Step {
    int step(int i);
  }

  public static final class FanOutImpl implements FanOut {
    @Override
    public int run(int children, int steps) {
      List<Promise<Integer>> all = new ArrayList<>();
      for (int i = 0; i < children; i++) {
        Steps child = Workflow.newChildWorkflowStub(Steps.class,
            ChildWorkflowOptions.newBuilder().setWorkflowId(Workflow.getInfo().getWorkflowId() + "/" + i).build());
        all.add(Async.function(child::run, steps));
      }
      Promise.allOf(all).get();
      return children;
    }
  }

  public static final class StepsImpl implements Steps {
    private final Step step = Workflow.newActivityStub(Step.class,
        ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofSeconds(30)).build());

    @Override
    public int run(int steps) {
      for (int i = 0; i < steps; i++) {
        step.step(i);
        Workflow.sleep(Duration.ofSeconds(1));
      }
      return steps;
    }
  }

  static final class StepImpl implements Step {
    @Override
    public int step(int i) {
      return i;
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new TemporalBenchmark()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    List<String> lines = new ArrayList<>(List.of("The local Temporal dev server alone: " + workflows + " children asked for "
        + "at once, each " + steps + " activities and 1 s timers, one worker. " + label, "",
        "| journal | all done s | child started after the ask p50 / p99 / last s | events | server CPU s | events per server CPU s |",
        "|---|---:|---:|---:|---:|---:|"));
    for (Journal journal : JOURNALS) {
      Result r = run(journal);
      String row = String.format(Locale.ROOT, "| %s | %.1f | %.1f / %.1f / %.1f | %d | %.1f | %.0f |", journal.name(),
          r.seconds(), r.startDelays().median() / 1000, r.startDelays().p99() / 1000, r.startDelays().max() / 1000,
          r.events(), r.serverCpuSeconds(), r.eventsPerCpuSecond());
      System.out.println(row);
      lines.add(row);
    }
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.write(out, lines);
    lines.forEach(System.out::println);
    System.out.println("written to " + out);
    return 0;
  }

  private Result run(Journal journal) throws Exception {
    Path dir = runDir.resolve(journal.pragmas().isEmpty() ? "defaults" : "local-stack").toAbsolutePath();
    dev.farrier.sandbox.SandboxEnvironment.recreate(dir);
    System.out.printf("== %s: starting the Temporal dev server in %s%n", journal.name(), dir);
    try (LocalStack stack = LocalStack.builder().runDir(dir).kubernetes(false).temporalUiPort(0)
        .temporalSqlitePragmas(journal.pragmas()).start()) {
      ProcessHandle server = ProcessHandle.of(stack.processes().get("temporal")).orElseThrow();
      var service = WorkflowServiceStubs.newServiceStubs(
          WorkflowServiceStubsOptions.newBuilder().setTarget(stack.temporalAddress()).build());
      var client = WorkflowClient.newInstance(service);
      var factory = WorkerFactory.newInstance(client);
      try {
        var worker = factory.newWorker(QUEUE);
        worker.registerWorkflowImplementationTypes(FanOutImpl.class, StepsImpl.class);
        worker.registerActivitiesImplementations(new StepImpl());
        factory.start();
        Duration cpuBefore = cpu(server);
        long start = System.nanoTime();
        String id = "fan-out";
        client.newWorkflowStub(FanOut.class, WorkflowOptions.newBuilder().setTaskQueue(QUEUE).setWorkflowId(id).build())
            .run(workflows, steps);
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpuSeconds = (cpu(server).toMillis() - cpuBefore.toMillis()) / 1000.0;
        List<HistoryEvent> parent = client.fetchHistory(id).getHistory().getEventsList();
        long events = parent.size();
        for (int i = 0; i < workflows; i++) {
          events += client.fetchHistory(id + "/" + i).getHistory().getEventsCount();
        }
        return new Result(journal, seconds, Percentiles.of(startDelays(parent)), events, cpuSeconds);
      } finally {
        factory.shutdownNow();
        service.shutdownNow();
      }
    }
  }

  private static Duration cpu(ProcessHandle process) {
    return process.info().totalCpuDuration()
        .orElseThrow(() -> new IllegalStateException("no CPU time for the Temporal server, pid " + process.pid()));
  }

  /** Milliseconds from the first child asked for to each child's start, in history order. */
  static List<Long> startDelays(List<HistoryEvent> parent) {
    long firstAsk = -1;
    List<Long> delays = new ArrayList<>();
    for (HistoryEvent event : parent) {
      long at = HistoryCost.millis(event);
      if (event.hasStartChildWorkflowExecutionInitiatedEventAttributes() && firstAsk < 0) {
        firstAsk = at;
      } else if (event.hasChildWorkflowExecutionStartedEventAttributes()) {
        if (firstAsk < 0) {
          throw new IllegalArgumentException("a child started before any was asked for, event " + event.getEventId());
        }
        delays.add(at - firstAsk);
      }
    }
    return delays;
  }
}

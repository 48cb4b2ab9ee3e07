package dev.farrier.workflows.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.workflows.interruption.InterruptionWorkflowImpl;
import dev.farrier.workflows.provisioning.NodeLaunchWorkflowImpl;
import dev.farrier.workflows.provisioning.ProvisioningWorkflowImpl;
import dev.farrier.workflows.reconciler.ClusterReconcilerWorkflowImpl;
import dev.farrier.workflows.replacement.NodeReplacementWorkflowImpl;
import dev.farrier.workflows.upgrade.NodePoolUpgradeWorkflowImpl;
import dev.farrier.workflows.upgrade.RolloutPreviewWorkflowImpl;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Determinism guard: each checked-in history must replay against today's workflow code. {@link #HISTORIES} are today's
 * code's own runs, written by {@link HistoryRecorder}: one that fails after a change is recorded again. The histories of
 * the last release, kept as that release wrote them in {@code histories/<release>/}, must replay too: one that fails
 * means the change would break the workflows that release left running, and needs a {@code Workflow.getVersion} patch
 * (see "Changing workflow code after a release" in docs/ARCHITECTURE.md).
 */
@Execution(ExecutionMode.SAME_THREAD) // one test environment for all its tests: one after another
class WorkflowReplayTest {
  private static final Path DIR = Path.of("src/test/resources/histories");

  /** Today's histories, by file name in {@code histories/}; the workflow type is the name up to its first dash. */
  static final List<String> HISTORIES = List.of(
      "NodeLaunchWorkflow",
      "NodeLaunchWorkflow-rolled-back",
      "ProvisioningWorkflow",
      "NodeReplacementWorkflow",
      "NodeReplacementWorkflow-interrupted",
      "NodeReplacementWorkflow-operator",
      "NodeReplacementWorkflow-expired",
      "NodeReplacementWorkflow-rollout-aborted",
      "NodeReplacementWorkflow-surged",
      "ClusterReconcilerWorkflow",
      "ClusterReconcilerWorkflow-rounds",
      "ClusterReconcilerWorkflow-replacement-started-by-hand",
      "ClusterReconcilerWorkflow-signalled-at-start",
      "InterruptionWorkflow",
      "NodePoolUpgradeWorkflow-batches-aborted",
      "NodePoolUpgradeWorkflow-rolling",
      "NodePoolUpgradeWorkflow-rolling-hand-over",
      // No "NodePoolUpgradeWorkflow-previewed" any more: a running rollout's preview is a query, which leaves no
      // history (its old shape, an Update running an activity, never left a release).
      "RolloutPreviewWorkflow",
      "RolloutPreviewWorkflow-running");

  private static final Map<String, Class<?>> IMPLEMENTATIONS = Map.of(
      "NodeLaunchWorkflow", NodeLaunchWorkflowImpl.class,
      "ProvisioningWorkflow", ProvisioningWorkflowImpl.class,
      "NodeReplacementWorkflow", NodeReplacementWorkflowImpl.class,
      "ClusterReconcilerWorkflow", ClusterReconcilerWorkflowImpl.class,
      "InterruptionWorkflow", InterruptionWorkflowImpl.class,
      "NodePoolUpgradeWorkflow", NodePoolUpgradeWorkflowImpl.class,
      "RolloutPreviewWorkflow", RolloutPreviewWorkflowImpl.class);

  private static TestWorkflowEnvironment environment;
  private static Worker worker;

  /**
   * One worker with every workflow type. Its deadlock detection waits 30 s, not 1 s: on a loaded machine (two shared
   * cores) the first replay's class loading alone took over a second, which is no deadlock.
   */
  @BeforeAll
  static void worker() {
    environment = TestWorkflowEnvironment.newInstance();
    worker = environment.newWorker("replay", WorkerOptions.newBuilder()
        .setDefaultDeadlockDetectionTimeout(Duration.ofSeconds(30).toMillis()).build());
    worker.registerWorkflowImplementationTypes(IMPLEMENTATIONS.values().toArray(Class<?>[]::new));
  }

  @AfterAll
  static void close() {
    environment.close();
  }

  @ParameterizedTest
  @FieldSource("HISTORIES")
  void replays(String history) throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/" + history + ".json", worker);
  }

  /** Every history the last release wrote ({@code histories/<release>/*.json}); none before the first release. */
  @ParameterizedTest(allowZeroInvocations = true)
  @MethodSource("lastReleaseHistories")
  void lastReleaseHistoriesReplay(String history) throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/" + history, worker);
  }

  static List<String> lastReleaseHistories() throws IOException {
    try (Stream<Path> files = Files.walk(DIR, 2)) {
      return files.filter(f -> f.getParent() != null && !f.getParent().equals(DIR) && f.toString().endsWith(".json"))
          .map(f -> DIR.relativize(f).toString().replace('\\', '/')).sorted().toList();
    }
  }

  /** A history on disk that is not listed would never be replayed; a listed one that is missing fails above. */
  @Test
  void everyHistoryOnDiskIsReplayedAndEveryWorkflowTypeHasOne() throws IOException {
    try (Stream<Path> files = Files.list(DIR)) {
      assertEquals(HISTORIES.stream().map(h -> h + ".json").sorted().toList(),
          files.filter(Files::isRegularFile).map(f -> f.getFileName().toString()).sorted().toList());
    }
    assertEquals(IMPLEMENTATIONS.keySet().stream().sorted().toList(),
        HISTORIES.stream().map(WorkflowReplayTest::typeOf).distinct().sorted().toList());
  }

  private static String typeOf(String history) {
    int dash = history.indexOf('-');
    return dash < 0 ? history : history.substring(0, dash);
  }
}

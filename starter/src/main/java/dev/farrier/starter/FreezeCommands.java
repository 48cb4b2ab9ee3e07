package dev.farrier.starter;

import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.reconciler.ClusterReconcilerWorkflow;
import dev.farrier.model.Freeze;
import dev.farrier.workflows.reconciler.FreezeRequest;
import io.temporal.client.WorkflowClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code farrier freeze} / {@code unfreeze}: a change freeze on the cluster's reconciler ({@code reconciler/<cluster>},
 * its {@code Freeze} and {@code Unfreeze} Updates), cluster-wide or for one NodePool. While it stands no voluntary
 * disruption and no fleet upgrade batch starts; replacements already running finish.
 */
final class FreezeCommands {
  private FreezeCommands() {}

  /** How long {@code list} waits for the reconciler to say which freezes are in force. */
  static final Duration QUERY_TIMEOUT = Duration.ofSeconds(5);

  abstract static class OnReconciler extends FarrierCommand {
    @Option(names = "--nodepool", paramLabel = "NAME", description = "only this NodePool (default: the whole cluster)")
    String nodePool;

    @Option(names = "--by", defaultValue = "${env:USER:-farrier-cli}", description = "who asks (default ${DEFAULT-VALUE})")
    String by;

    String send(java.util.function.Function<ClusterReconcilerWorkflow, String> call) {
      WorkflowClient client = client();
      String id = WorkflowIds.reconciler(parent.cluster);
      var reconciler = client.newWorkflowStub(ClusterReconcilerWorkflow.class, id);
      return WorkflowCalls.on(client, "reconciler", id, () -> call.apply(reconciler));
    }
  }

  @Command(name = "freeze", description = "Hold every voluntary disruption (drift, rebalance, replace-first expiry) and "
      + "every fleet upgrade batch, cluster-wide or in one NodePool, until unfrozen. Running replacements finish; "
      + "forceful expiry, deletion and interruptions are not held.")
  static final class FreezeCommand extends OnReconciler {
    @Option(names = "--reason", required = true, description = "why: shown wherever the freeze is")
    String reason;

    @Override
    public Integer call() {
      out().println(send(r -> r.freeze(new FreezeRequest(nodePool, reason, by))));
      return ExitCodes.DONE;
    }
  }

  @Command(name = "unfreeze", description = "Lift the freeze of the cluster (or of one NodePool).")
  static final class UnfreezeCommand extends OnReconciler {
    @Override
    public Integer call() {
      out().println(send(r -> r.unfreeze(new FreezeRequest(nodePool, null, by))));
      return ExitCodes.DONE;
    }
  }

  /**
   * The freezes in force, for {@code list}: empty when the reconciler does not exist; null when it did not answer
   * within {@link #QUERY_TIMEOUT} (no worker polls).
   */
  static List<Freeze> inForce(WorkflowClient client, String cluster) {
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      var answer = executor.submit(() -> client.newWorkflowStub(ClusterReconcilerWorkflow.class, WorkflowIds.reconciler(cluster))
          .status().freezes());
      try {
        List<Freeze> freezes = answer.get(QUERY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        return freezes == null ? List.of() : freezes;
      } catch (ExecutionException e) {
        return WorkflowCalls.notFound(e.getCause()) != null ? List.of() : null;
      } catch (TimeoutException e) {
        answer.cancel(true);
        return null;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
  }
}

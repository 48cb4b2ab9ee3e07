package dev.farrier.worker;

import dev.farrier.activities.rollout.ReplacementHistory;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.replacement.ReplacementPhase;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
import io.temporal.client.WorkflowClient;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recent replacements of some NodePools from Temporal's visibility: completed {@code disrupt/<nodeclaim>} workflows
 * of this cluster whose phase ended {@code Done} (they replaced their node; an aborted or invalidated one did not) and
 * whose reason is {@code drifted}, as a rollout's replacements are (an empty or underutilized node's deletion, or an
 * interruption's replacement, ends {@code Done} too, in another time), the newest {@link #SAMPLES}, start to close. One list call bounded by {@link TemporalWorkflowStatus#CALL_DEADLINE}, under
 * the preview's minute; a call that fails or times out answers no history.
 */
final class TemporalReplacementHistory implements ReplacementHistory {
  private static final Logger log = LoggerFactory.getLogger(TemporalReplacementHistory.class);
  static final int SAMPLES = 200;

  private final WorkflowClient client;
  private final String cluster;

  TemporalReplacementHistory(WorkflowClient client, String cluster) {
    this.client = client;
    this.cluster = cluster;
  }

  @Override
  public List<Long> durationsSeconds(List<String> nodePools) {
    if (nodePools.isEmpty()) {
      return List.of();
    }
    String query = "WorkflowType = '" + NodeReplacementWorkflow.class.getSimpleName() + "' AND "
        + FarrierSearchAttributes.CLUSTER.getName() + " = '" + cluster + "' AND " + FarrierSearchAttributes.NODE_POOL.getName()
        + " IN (" + nodePools.stream().map(p -> "'" + p + "'").collect(Collectors.joining(", ")) + ") AND ExecutionStatus = 'Completed'"
        + " AND " + FarrierSearchAttributes.PHASE.getName() + " = '" + ReplacementPhase.DONE.label() + "'"
        + " AND " + FarrierSearchAttributes.REASON.getName() + " = '" + DisruptionCommand.REASON_DRIFTED + "'";
    try {
      var answer = client.getWorkflowServiceStubs().blockingStub()
          .withDeadlineAfter(TemporalWorkflowStatus.CALL_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)
          .listWorkflowExecutions(ListWorkflowExecutionsRequest.newBuilder()
              .setNamespace(client.getOptions().getNamespace()).setQuery(query).setPageSize(SAMPLES).build());
      return answer.getExecutionsList().stream()
          .filter(e -> e.hasStartTime() && e.hasCloseTime())
          .map(e -> Math.max(0, e.getCloseTime().getSeconds() - e.getStartTime().getSeconds()))
          .toList();
    } catch (RuntimeException e) {
      log.warn("cannot list the replacement history of nodepools={}, previewing without it: {}", nodePools, e.toString());
      return List.of();
    }
  }
}

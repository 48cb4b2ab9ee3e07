package dev.farrier.starter;

import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import java.util.function.Function;
import picocli.CommandLine.Parameters;

/** A command on the replacement {@code disrupt/<NODECLAIM>}. */
abstract class ReplacementCommand extends FarrierCommand {
  @Parameters(paramLabel = "NODECLAIM", description = "the NodeClaim whose replacement to act on")
  String nodeClaim;

  String workflowId() {
    return WorkflowIds.disruption(nodeClaim);
  }

  /** Calls the replacement; "no such replacement" and refusals become their exit codes. */
  <T> T onReplacement(Function<NodeReplacementWorkflow, T> call) {
    var client = client();
    var replacement = client.newWorkflowStub(NodeReplacementWorkflow.class, workflowId());
    return WorkflowCalls.on(client, "replacement", workflowId(), () -> call.apply(replacement));
  }
}

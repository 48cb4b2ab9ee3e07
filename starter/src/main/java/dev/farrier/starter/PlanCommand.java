package dev.farrier.starter;

import dev.farrier.workflows.WorkflowIds;
import dev.farrier.model.CandidateDecision;
import dev.farrier.workflows.reconciler.ClusterReconcilerWorkflow;
import java.time.Instant;
import picocli.CommandLine.Command;

@Command(name = "plan", description = "Plans disruption now, as the reconciler's next round would, without acting: why each "
    + "node is or is not being disrupted.")
final class PlanCommand extends FarrierCommand {
  @Override
  public Integer call() {
    String id = WorkflowIds.reconciler(parent.cluster);
    var client = client();
    var reconciler = client.newWorkflowStub(ClusterReconcilerWorkflow.class, id);
    var status = WorkflowCalls.on(client, "reconciler", id, reconciler::status);
    out().printf("%s: %d pending pods, provisioning %s, replacements started %s%n",
        id, status.pendingPods(), status.provisioningInFlight(), status.replacementsStarted());
    for (var c : status.cooldowns()) {
      out().printf("%s: last replacement failed (%d in a row), next try after %s%n", c.nodeClaim(), c.failures(),
          Instant.ofEpochMilli(c.untilMillis()));
    }
    var plan = WorkflowCalls.on(client, "reconciler", id, reconciler::previewPlan);
    for (CandidateDecision d : plan.decisions()) {
      out().printf("%-40s %-45s %-8s %s%n", d.nodeClaim(), d.nodeName(), d.disrupt() ? "DISRUPT" : "keep", d.reason());
    }
    if (plan.omittedDecisions() > 0) {
      out().printf("... and %d more NodeClaims kept (a plan lists at most %d)%n", plan.omittedDecisions(), plan.decisions().size());
    }
    return ExitCodes.DONE;
  }
}

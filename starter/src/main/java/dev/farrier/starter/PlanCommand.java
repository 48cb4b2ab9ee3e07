package dev.farrier.starter;

import dev.farrier.workflows.WorkflowIds;
import dev.farrier.model.CandidateDecision;
import dev.farrier.workflows.reconciler.ClusterReconcilerWorkflow;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "plan", description = "Plans disruption now, as the reconciler's next round would, without acting: why each "
    + "node is or is not being disrupted.")
final class PlanCommand extends FarrierCommand {
  @Option(names = {"-o", "--output"}, defaultValue = "text", paramLabel = "FORMAT",
      description = "text (a line per NodeClaim) or json (one object: the reconciler's status and the plan) (default ${DEFAULT-VALUE})")
  Output output;

  @Override
  public Integer call() {
    String id = WorkflowIds.reconciler(parent.cluster);
    var client = client();
    var reconciler = client.newWorkflowStub(ClusterReconcilerWorkflow.class, id);
    var status = WorkflowCalls.on(client, "reconciler", id, reconciler::status);
    var plan = WorkflowCalls.on(client, "reconciler", id, reconciler::previewPlan);
    if (output == Output.JSON) {
      Map<String, Object> both = new LinkedHashMap<>();
      both.put("reconciler", id);
      both.put("status", status);
      both.put("plan", plan);
      out().println(Json.write(both));
      out().flush();
      return ExitCodes.DONE;
    }
    out().printf("%s: %d pending pods, provisioning %s, replacements started %s%n",
        id, status.pendingPods(), status.provisioningInFlight(), status.replacementsStarted());
    for (var c : status.cooldowns()) {
      out().printf("%s: last replacement failed (%d in a row), next try after %s%n", c.nodeClaim(), c.failures(),
          Instant.ofEpochMilli(c.untilMillis()));
    }
    for (CandidateDecision d : plan.decisions()) {
      out().printf("%-40s %-45s %-8s %s%n", d.nodeClaim(), d.nodeName(), d.disrupt() ? "DISRUPT" : "keep", d.reason());
    }
    if (plan.omittedDecisions() > 0) {
      out().printf("... and %d more NodeClaims kept (a plan lists at most %d)%n", plan.omittedDecisions(), plan.decisions().size());
    }
    return ExitCodes.DONE;
  }
}

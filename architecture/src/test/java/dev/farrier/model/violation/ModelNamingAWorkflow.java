package dev.farrier.model.violation;

import dev.farrier.workflows.WorkflowIds;

/** Deliberately breaks "the model is plain records" for RulesCatchViolationsTest; never part of a production jar. */
public record ModelNamingAWorkflow(String nodeClaim) {
  public String workflowId() {
    return WorkflowIds.disruption(nodeClaim);
  }
}

package dev.farrier.workflows;

import dev.farrier.model.DisruptionCommand;
import io.temporal.api.enums.v1.ParentClosePolicy;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.workflow.ChildWorkflowOptions;

/**
 * The one place child workflow starts are configured: id, id reuse policy and parent close policy, each chosen on
 * purpose. Every child is ABANDONed when its parent closes: a launch or a replacement half done must finish (or roll
 * itself back) rather than be killed with an instance running and nobody left to clean it up.
 *
 * <p>Child starts have no conflict policy: starting an id that is running always fails with
 * {@link WorkflowExecutionAlreadyStarted} (see {@link #alreadyStarted}), which is what keeps one node from being
 * replaced twice at the same time.
 */
public final class ChildWorkflowStarts {
  private ChildWorkflowStarts() {}

  /**
   * {@code launch/<nodeclaim>}: a claim name that launched successfully is never launched again (its node may have
   * been replaced and deleted since, and a second launch would resurrect it); a claim whose launch failed was rolled
   * back by its saga, so the same name may be tried again.
   */
  public static ChildWorkflowOptions launch(String nodeClaim) {
    return ChildWorkflowOptions.newBuilder()
        .setWorkflowId(WorkflowIds.launch(nodeClaim))
        .setWorkflowIdReusePolicy(WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY)
        .setParentClosePolicy(ParentClosePolicy.PARENT_CLOSE_POLICY_ABANDON)
        .build();
  }

  /**
   * {@code provision/<cluster>/<batch>}: a batch number is used once, ever, because the planner derives claim names
   * from it; a reconciler that meets a used number skips to the next one.
   */
  public static ChildWorkflowOptions provisioning(String cluster, long batch) {
    return ChildWorkflowOptions.newBuilder()
        .setWorkflowId(WorkflowIds.provisioning(cluster, batch))
        .setWorkflowIdReusePolicy(WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
        .setParentClosePolicy(ParentClosePolicy.PARENT_CLOSE_POLICY_ABANDON)
        .build();
  }

  /**
   * {@code provision/<cluster>/static}: the static NodePools' scale-up runs once at a time (a second would count the
   * same missing nodes and launch them twice; starting it while one runs fails), and again after it closed. Its claim
   * names derive from its run id, so a new run never names an existing claim.
   */
  public static ChildWorkflowOptions staticProvisioning(String cluster) {
    return ChildWorkflowOptions.newBuilder()
        .setWorkflowId(WorkflowIds.staticProvisioning(cluster))
        .setWorkflowIdReusePolicy(WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE)
        .setParentClosePolicy(ParentClosePolicy.PARENT_CLOSE_POLICY_ABANDON)
        .build();
  }

  /**
   * {@code disrupt/<nodeclaim>}: a closed replacement may be followed by a new one (an aborted node the operator
   * released, or a failed attempt the planner proposes again); a running one is never started twice. It starts with
   * its identity as search attributes (cluster, NodeClaim, NodePool, reason, node, instance): the disruption budget
   * counts the replacements visibility lists for the cluster, and one whose first workflow task has not run yet (a
   * worker restarting, a backlog after Temporal was down) must be counted from the moment it starts, not from its
   * first upsert. The chaos soak's seed 1 found a NodePool two over its budget in that gap.
   */
  public static ChildWorkflowOptions disruption(String cluster, DisruptionCommand command) {
    return ChildWorkflowOptions.newBuilder()
        .setWorkflowId(WorkflowIds.disruption(command.nodeClaim()))
        .setWorkflowIdReusePolicy(WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE)
        .setParentClosePolicy(ParentClosePolicy.PARENT_CLOSE_POLICY_ABANDON)
        .setTypedSearchAttributes(FarrierSearchAttributes.replacementIdentity(cluster, command))
        .build();
  }

  /** True when a child could not start because its id is running (or, under REJECT_DUPLICATE, was ever used). */
  public static boolean alreadyStarted(ChildWorkflowFailure failure) {
    return failure.getCause() instanceof WorkflowExecutionAlreadyStarted;
  }
}

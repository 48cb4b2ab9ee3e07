package dev.farrier.workflows.upgrade;

import dev.farrier.workflows.replacement.OperatorRequest;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * {@code upgrade/<nodepools>/<target>}: rolls the NodePools of one EC2NodeClass to a new AMI, started from CI with
 * {@code farrier upgrade}. It takes the NodePools (their drift is then replaced only in its batches), switches the
 * class's {@code amiSelectorTerms}, and replaces the drifted nodes canary first, then in batches, each as an ordinary
 * {@code disrupt/<nodeclaim>} replacement (disruption budgets, PodDisruptionBudgets and {@code do-not-disrupt} hold).
 * After each batch a gate waits until the new nodes and the moved pods are Ready and watches them through a soak time.
 *
 * <p>A failed gate, more failed replacements than allowed, or an operator's {@code Abort} stops it: no further old
 * node is touched, the class gets its previous images back, the nodes the rollout launched are replaced by nodes on
 * the previous images, and the NodePools are given back. The result says why.
 */
@WorkflowInterface
public interface NodePoolUpgradeWorkflow {
  String APPROVE = "Approve";
  String ABORT = "Abort";
  String REMAINING = "Remaining";

  @WorkflowMethod
  UpgradeResult upgrade(UpgradeInput input);

  /** Lets a rollout waiting after its canary (phase AwaitingApproval) go on with the next batches. */
  @UpdateMethod(name = APPROVE)
  String approve(OperatorRequest request);

  @UpdateValidatorMethod(updateName = APPROVE)
  void validateApprove(OperatorRequest request);

  /** Stops the rollout and rolls it back (see the class comment). A reason is required. */
  @UpdateMethod(name = ABORT)
  String abort(OperatorRequest request);

  @UpdateValidatorMethod(updateName = ABORT)
  void validateAbort(OperatorRequest request);

  /**
   * What the rollout has left, as the input of the preview workflow {@code preview/...} that {@code farrier upgrade
   * preview <id>} then runs: its NodePools and resolved target, its flags, and what it has done (batches, total, the
   * replacements in flight, its phase). A query, answered from the rollout's state alone: it runs no activity, leaves
   * nothing in the rollout's history and cannot hold the rollout up. Answers why not instead once the rollout is rolling
   * back or stopping, and before it has taken its NodePools.
   */
  @QueryMethod(name = REMAINING)
  RolloutRemaining remaining();

  @QueryMethod
  UpgradeProgress progress();
}

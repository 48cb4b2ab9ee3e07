package dev.farrier.workflows.upgrade;

import static dev.farrier.workflows.upgrade.UpgradePhase.WAITING;

import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.activities.OffTargetNode;
import dev.farrier.workflows.activities.RolloutClaim;
import dev.farrier.workflows.activities.TargetCheckRequest;
import java.util.List;

/**
 * The rollout's promise: it ends Succeeded only when every node of its NodePools runs a target image, as the cluster
 * says now. A node off target sends it back to rolling (the planner may hand it out now: it initialized, its hold was
 * lifted); one still off target after {@link #TARGET_CHECKS} looks fails the rollout with the nodes and what holds them.
 * Its own count is not enough: a node the planner skipped (an operator's abort mark) would be left on the old image
 * under a Succeeded.
 */
final class TargetCheck {
  /** How many times the end is checked against the cluster before a fleet still off target fails the rollout. */
  static final int TARGET_CHECKS = 3;

  private final Rollout rollout;

  TargetCheck(Rollout rollout) {
    this.rollout = rollout;
  }

  /** Returns once every node is on a target image, rolling forward ({@code rollForward}) again between looks. */
  void untilOnTarget(Runnable rollForward) {
    for (int check = 1; ; check++) {
      RolloutClaim claim = rollout.claim();
      List<OffTargetNode> off = rollout.activities.offTarget(new TargetCheckRequest(rollout.input.cluster(),
          claim.nodePools(), claim.targetImages()));
      if (off.isEmpty()) {
        return;
      }
      String which = off.size() + " node(s) of " + String.join(", ", claim.nodePools()) + " not on the target images "
          + claim.targetImages() + ": " + String.join("; ", off.stream().limit(5).map(OffTargetNode::describe).toList())
          + (off.size() > 5 ? "; and " + (off.size() - 5) + " more" : "");
      StructuredLog.warn(Rollout.log, "rollout found nodes off target at its end", "rollout", rollout.workflowId,
          "check", check, "nodes", off.stream().map(OffTargetNode::nodeClaim).toList());
      if (check >= TARGET_CHECKS) {
        throw new RolloutStopped(which, false);
      }
      rollout.enter(WAITING);
      rollout.setBlocker(which);
      rollout.awaitNextPlan();
      rollout.checkAbort();
      rollForward.run();
    }
  }
}

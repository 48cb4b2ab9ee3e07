package dev.farrier.activities.drain.violation;

import dev.farrier.activities.launch.NodeClaimActivitiesImpl;

/** Deliberately breaks "the activities' use cases stay apart" (the drain reaching into the launch) for RulesCatchViolationsTest. */
public final class DrainLaunchingANode {
  private final NodeClaimActivitiesImpl launch;

  public DrainLaunchingANode(NodeClaimActivitiesImpl launch) {
    this.launch = launch;
  }

  public NodeClaimActivitiesImpl launch() {
    return launch;
  }
}

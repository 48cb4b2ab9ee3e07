package dev.farrier.activities.violation;

import dev.farrier.activities.kube.Cluster;

/** Deliberately breaks "only the composition root takes the whole Cluster" for RulesCatchViolationsTest. */
public final class ActivityTakingTheWholeCluster {
  private final Cluster cluster;

  public ActivityTakingTheWholeCluster(Cluster cluster) {
    this.cluster = cluster;
  }

  public boolean nodeExists(String name) {
    return cluster.getNode(name).isPresent();
  }
}

package dev.farrier.workflows.activities;

/**
 * Names a NodeClaim in a cluster; input of the NodeClaim activities that need nothing else.
 *
 * @param recordLaunched {@link NodeClaimActivities#launchInstance} records the claim's Launched Event once the instance
 *                       is launched (its message names the instance, which only the launch knows), as the launch
 *                       workflow asks; false from the two-argument constructor. The other activities record none.
 */
public record NodeClaimRef(String cluster, String nodeClaim, boolean recordLaunched) {
  public NodeClaimRef(String cluster, String nodeClaim) {
    this(cluster, nodeClaim, false);
  }
}

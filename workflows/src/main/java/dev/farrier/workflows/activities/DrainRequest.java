package dev.farrier.workflows.activities;

/**
 * Input of {@link NodeActivities#drainStep}. With {@code bypassPdb} (once the NodePool's terminationGracePeriod has
 * expired, or an operator forced the drain) the remaining pods are deleted instead of evicted.
 *
 * @param holdUnowned leave pods no controller owns on the node (reported as held) instead of evicting them, since
 *                    nothing would recreate them; false for a node that is going away anyway (interrupted)
 */
public record DrainRequest(String cluster, String nodeName, String nodeClaim, boolean bypassPdb, boolean holdUnowned) {
  /** As replacements before {@code holdUnowned} existed drained: pods without a controller are evicted too. */
  public DrainRequest(String cluster, String nodeName, String nodeClaim, boolean bypassPdb) {
    this(cluster, nodeName, nodeClaim, bypassPdb, false);
  }
}

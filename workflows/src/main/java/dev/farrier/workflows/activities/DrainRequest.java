package dev.farrier.workflows.activities;

/**
 * Input of {@link NodeActivities#drainStep}. With {@code bypassPdb} (once the NodePool's terminationGracePeriod has
 * expired, or an operator forced the drain) the remaining pods are deleted instead of evicted.
 *
 * @param holdUnowned      leave pods no controller owns on the node (reported as held) instead of evicting them, since
 *                         nothing would recreate them; false for a node that is going away anyway (interrupted)
 * @param instanceGone     the cloud confirmed the node's instance is gone: its pods are already dead, so they are
 *                         released at once (deleted with no grace period, past PDBs and do-not-disrupt); there is
 *                         nothing to drain
 * @param recordEvictions  the pass records an Evicted Event on the node for each pod it evicted or released
 *                         ({@link dev.farrier.workflows.EventReasons#evicted}), as the replacement asks; false from the
 *                         shorter constructors, which tests of the pass alone use
 * @param nodePool         the node's NodePool, whose {@code farrier.dev/surge} annotation opts its pods in to a surge
 *                         ({@code DrainStatus#surgeable}); null from the shorter constructors
 */
public record DrainRequest(String cluster, String nodeName, String nodeClaim, boolean bypassPdb, boolean holdUnowned,
    boolean instanceGone, boolean recordEvictions, String nodePool) {
  public DrainRequest(String cluster, String nodeName, String nodeClaim, boolean bypassPdb, boolean holdUnowned,
      boolean instanceGone, boolean recordEvictions) {
    this(cluster, nodeName, nodeClaim, bypassPdb, holdUnowned, instanceGone, recordEvictions, null);
  }

  /** Pods without a controller evicted too, nothing released, no Events recorded. */
  public DrainRequest(String cluster, String nodeName, String nodeClaim, boolean bypassPdb) {
    this(cluster, nodeName, nodeClaim, bypassPdb, false, false, false);
  }

  public DrainRequest(String cluster, String nodeName, String nodeClaim, boolean bypassPdb, boolean holdUnowned) {
    this(cluster, nodeName, nodeClaim, bypassPdb, holdUnowned, false, false);
  }

  public DrainRequest(String cluster, String nodeName, String nodeClaim, boolean bypassPdb, boolean holdUnowned,
      boolean instanceGone) {
    this(cluster, nodeName, nodeClaim, bypassPdb, holdUnowned, instanceGone, false);
  }
}

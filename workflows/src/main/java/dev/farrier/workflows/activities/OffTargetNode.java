package dev.farrier.workflows.activities;

/**
 * A node of a rollout's NodePools that does not run one of its target images, as the cluster says at the rollout's end.
 *
 * @param nodeClaim its NodeClaim
 * @param node      its Node's name; null before it registered
 * @param image     the image its NodeClaim reports
 * @param why       what holds it, as far as the cluster shows (an operator's abort mark, do-not-disrupt, not
 *                  initialized yet), or that nothing visible does
 */
public record OffTargetNode(String nodeClaim, String node, String image, String why) {
  /** "claim (node N) runs ami-x: why", for the rollout's blocker and cause. */
  public String describe() {
    return nodeClaim + (node == null ? "" : " (node " + node + ")") + " runs " + image + ": " + why;
  }
}

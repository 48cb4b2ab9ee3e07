package dev.farrier.workflows.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whether a NodeClaim has drifted from what its NodePool and node class would launch now: its image is not among
 * the images the node class resolves to for its architecture, or its {@code karpenter.sh/nodepool-hash} differs
 * from the NodePool's. A missing hash on either side, or no images resolved for the arch (a resolution failure),
 * is not drift: replacing every node because a lookup came back empty would be the worst possible reaction.
 *
 * @param reason     Karpenter's drift reason ({@link #NODEPOOL_DRIFTED} before {@link #AMI_DRIFT}, as Karpenter
 *                   checks the NodePool before asking the cloud), null when not drifted
 * @param detail     what was found, e.g. {@code image ami-a is not among ami-b resolved for amd64}
 * @param conclusive false when not drifted but the image could not be compared (image unknown, nothing resolved):
 *                   the claim may be drifted, so a Drifted condition it has is left as it is
 */
record DriftCheck(String reason, String detail, boolean conclusive) {
  static final String AMI_DRIFT = "AMIDrift";
  static final String NODEPOOL_DRIFTED = "NodePoolDrifted";

  boolean drifted() {
    return reason != null;
  }

  /** Checks {@code claim} against the images of its node class (the claim's, else the pool's) in {@code images}. */
  static DriftCheck of(NodeClaimView claim, NodePoolView pool, Map<String, List<String>> images) {
    String nodeClass = claim.nodeClassName() != null ? claim.nodeClassName() : pool.nodeClassName();
    return of(claim, pool, images.getOrDefault(ResolvedImages.key(nodeClass, claim.arch()), List.of()));
  }

  static DriftCheck of(NodeClaimView claim, NodePoolView pool, List<String> resolvedForArch) {
    List<String> found = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    String reason = null;
    boolean imageCompared = false;
    if (claim.imageId() == null) {
      notes.add("image unknown");
    } else if (resolvedForArch.isEmpty()) {
      notes.add("no images resolved for " + claim.arch() + ", image drift not checked");
    } else if (!resolvedForArch.contains(claim.imageId())) {
      imageCompared = true;
      reason = AMI_DRIFT;
      found.add("image " + claim.imageId() + " is not among " + String.join(", ", resolvedForArch) + " resolved for "
          + claim.arch());
    } else {
      imageCompared = true;
      notes.add("image " + claim.imageId() + " is current for " + claim.arch());
    }
    if (pool.hash() == null || claim.nodePoolHash() == null) {
      notes.add("nodepool-hash not compared (missing)");
    } else if (!pool.hash().equals(claim.nodePoolHash())) {
      reason = NODEPOOL_DRIFTED;
      found.add("nodepool-hash " + claim.nodePoolHash() + " differs from nodepool " + pool.name() + "'s " + pool.hash());
    } else {
      notes.add("nodepool-hash matches");
    }
    return found.isEmpty()
        ? new DriftCheck(null, "not drifted: " + String.join(", ", notes), imageCompared)
        : new DriftCheck(reason, String.join("; ", found), true);
  }
}

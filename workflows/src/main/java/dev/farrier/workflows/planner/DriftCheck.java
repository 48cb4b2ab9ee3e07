package dev.farrier.workflows.planner;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a NodeClaim has drifted from what its NodePool and node class would launch now: its image is not among
 * the images the node class resolves to for its architecture, or its {@code karpenter.sh/nodepool-hash} differs
 * from the NodePool's. A missing hash on either side, or no images resolved for the arch (a resolution failure),
 * is not drift: replacing every node because a lookup came back empty would be the worst possible reaction.
 *
 * @param drifted whether any check found drift
 * @param detail  what was found, e.g. {@code image ami-a is not among ami-b resolved for amd64}
 */
record DriftCheck(boolean drifted, String detail) {

  static DriftCheck of(NodeClaimView claim, NodePoolView pool, List<String> resolvedForArch) {
    List<String> found = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    if (claim.imageId() == null) {
      notes.add("image unknown");
    } else if (resolvedForArch.isEmpty()) {
      notes.add("no images resolved for " + claim.arch() + ", image drift not checked");
    } else if (!resolvedForArch.contains(claim.imageId())) {
      found.add("image " + claim.imageId() + " is not among " + String.join(", ", resolvedForArch) + " resolved for "
          + claim.arch());
    } else {
      notes.add("image " + claim.imageId() + " is current for " + claim.arch());
    }
    if (pool.hash() == null || claim.nodePoolHash() == null) {
      notes.add("nodepool-hash not compared (missing)");
    } else if (!pool.hash().equals(claim.nodePoolHash())) {
      found.add("nodepool-hash " + claim.nodePoolHash() + " differs from nodepool " + pool.name() + "'s " + pool.hash());
    } else {
      notes.add("nodepool-hash matches");
    }
    return found.isEmpty()
        ? new DriftCheck(false, "not drifted: " + String.join(", ", notes))
        : new DriftCheck(true, String.join("; ", found));
  }
}

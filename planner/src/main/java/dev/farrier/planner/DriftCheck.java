package dev.farrier.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether a NodeClaim has drifted from what its NodePool and EC2NodeClass would launch now, checked in Karpenter v1's
 * order (the NodePool's static fields and requirements before the cloud provider, whose node class hash comes before
 * the image, security groups and subnet), each with Karpenter's reason:
 * <ol>
 *   <li>{@code NodePoolDrifted}: {@code karpenter.sh/nodepool-hash} differs from the NodePool's;</li>
 *   <li>{@code RequirementsDrifted}: the claim's labels no longer meet the NodePool's requirements
 *       ({@link RequirementsDrift});</li>
 *   <li>{@code NodeClassDrift}: {@code karpenter.k8s.aws/ec2nodeclass-hash} differs from the EC2NodeClass's, at the same
 *       hash version;</li>
 *   <li>{@code AMIDrift}: its image is not among the images the class resolves to for its architecture;</li>
 *   <li>{@code SecurityGroupDrift}: its instance's security groups are not exactly the class's resolved ones;</li>
 *   <li>{@code SubnetDrift}: its instance's subnet is not among the class's resolved ones.</li>
 * </ol>
 * Anything that cannot be compared is not drift: a hash missing on either side (or of another version), a fact the
 * launch did not record, and nothing resolved (an empty {@code status.amis}, {@code subnets} or {@code securityGroups}
 * is a resolution failure; replacing every node because a lookup came back empty would be the worst possible reaction).
 *
 * @param reason     the first drift reason in the order above, null when not drifted
 * @param detail     what was found, every drift in that order (e.g. {@code image ami-a is not among ami-b resolved for
 *                   amd64}), or why it is not drifted
 * @param conclusive false when not drifted but something could not be compared for lack of a resolved value (image
 *                   unknown, nothing resolved, node class unknown): the claim may be drifted, so a Drifted condition it
 *                   has is left as it is
 */
record DriftCheck(String reason, String detail, boolean conclusive) {
  static final String NODEPOOL_DRIFTED = "NodePoolDrifted";
  static final String REQUIREMENTS_DRIFTED = "RequirementsDrifted";
  static final String NODECLASS_DRIFT = "NodeClassDrift";
  static final String AMI_DRIFT = "AMIDrift";
  static final String SECURITY_GROUP_DRIFT = "SecurityGroupDrift";
  static final String SUBNET_DRIFT = "SubnetDrift";

  boolean drifted() {
    return reason != null;
  }

  /** Checks {@code claim} against the images of its node class (the claim's, else the pool's) in {@code images}. */
  static DriftCheck of(NodeClaimView claim, NodePoolView pool, Map<String, List<String>> images) {
    String nodeClass = claim.nodeClassName() != null ? claim.nodeClassName() : pool.nodeClassName();
    return of(claim, pool, images.getOrDefault(ResolvedImages.key(nodeClass, claim.arch()), List.of()));
  }

  static DriftCheck of(NodeClaimView claim, NodePoolView pool, List<String> resolvedForArch) {
    Findings findings = new Findings();
    nodePoolHash(claim, pool, findings);
    RequirementsDrift.check(claim.labels(), pool, findings);
    NodeClassDrift.check(claim.launchedWith(), claim.nodeClass(), resolvedForArch, claim, findings);
    return findings.result();
  }

  private static void nodePoolHash(NodeClaimView claim, NodePoolView pool, Findings findings) {
    if (pool.hash() == null || claim.nodePoolHash() == null) {
      findings.note("nodepool-hash not compared (missing)");
    } else if (!pool.hash().equals(claim.nodePoolHash())) {
      findings.drift(NODEPOOL_DRIFTED, "nodepool-hash " + claim.nodePoolHash() + " differs from nodepool " + pool.name() + "'s "
          + pool.hash());
    } else {
      findings.note("nodepool-hash matches");
    }
  }

  /** What the checks found, in the order they ran. */
  static final class Findings {
    private final List<String> reasons = new ArrayList<>();
    private final List<String> found = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private boolean conclusive = true;

    void drift(String reason, String what) {
      reasons.add(reason);
      found.add(what);
    }

    void note(String what) {
      notes.add(what);
    }

    /** A source that could not be compared for lack of a resolved value: the claim may be drifted. */
    void notChecked(String why) {
      notes.add(why);
      conclusive = false;
    }

    DriftCheck result() {
      return found.isEmpty()
          ? new DriftCheck(null, "not drifted: " + String.join(", ", notes), conclusive)
          : new DriftCheck(reasons.getFirst(), String.join("; ", found), true);
    }
  }

  static String ids(List<String> ids) {
    return String.join(", ", ids);
  }

  static boolean sameSet(List<String> a, List<String> b) {
    return Set.copyOf(a).equals(Set.copyOf(b));
  }
}

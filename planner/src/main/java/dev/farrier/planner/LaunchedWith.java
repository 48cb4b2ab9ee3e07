package dev.farrier.planner;

import java.util.List;

/**
 * What a NodeClaim's instance was launched with, as the launch step recorded it on the claim; drift compares it with
 * what its EC2NodeClass holds now ({@link NodeClassView}). A claim launched before a fact was recorded has it null
 * (or empty): that fact is not compared, as a claim without {@code karpenter.sh/nodepool-hash} is not.
 *
 * @param nodeClassHash        annotation {@code karpenter.k8s.aws/ec2nodeclass-hash}
 * @param nodeClassHashVersion annotation {@code karpenter.k8s.aws/ec2nodeclass-hash-version}
 * @param subnetId             the instance's subnet (annotation {@code farrier.dev/subnet-id})
 * @param securityGroupIds     the instance's security groups (annotation {@code farrier.dev/security-group-ids})
 */
public record LaunchedWith(String nodeClassHash, String nodeClassHashVersion, String subnetId, List<String> securityGroupIds) {
  /** Nothing recorded: a claim launched before Farrier recorded any of it. */
  public static final LaunchedWith UNKNOWN = new LaunchedWith(null, null, null, List.of());

  public LaunchedWith {
    securityGroupIds = securityGroupIds == null ? List.of() : List.copyOf(securityGroupIds);
  }
}

package dev.farrier.planner;

import java.util.List;

/**
 * An EC2NodeClass as drift sees it now, read by the planning activity without calling the cloud: the hash of its
 * spec and what the status loop resolved its selector terms to.
 *
 * @param hash             what {@code karpenter.k8s.aws/ec2nodeclass-hash} on its NodeClaims must equal
 * @param hashVersion      how {@link #hash} was computed; claims recorded with another version are not compared
 * @param subnetIds        {@code status.subnets}; empty when resolution failed or has not run (never drift)
 * @param securityGroupIds {@code status.securityGroups}; empty likewise
 */
public record NodeClassView(String name, String hash, String hashVersion, List<String> subnetIds, List<String> securityGroupIds) {
  public NodeClassView {
    subnetIds = subnetIds == null ? List.of() : List.copyOf(subnetIds);
    securityGroupIds = securityGroupIds == null ? List.of() : List.copyOf(securityGroupIds);
  }
}

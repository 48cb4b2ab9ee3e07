package dev.farrier.activities.cloud;

/**
 * What an EC2NodeClass says about its nodes' IAM identity: exactly one of {@code role} (Farrier manages an
 * instance profile for it) and {@code instanceProfile} (the user's own, used as it is) is set.
 *
 * @param cluster   the cluster name (the managed profile's name and tags derive from it)
 * @param nodeClass the EC2NodeClass's name (likewise)
 */
public record InstanceProfileRequest(String cluster, String nodeClass, String role, String instanceProfile) {
  public static InstanceProfileRequest ofRole(String cluster, String nodeClass, String role) {
    return new InstanceProfileRequest(cluster, nodeClass, role, null);
  }

  public static InstanceProfileRequest ofInstanceProfile(String cluster, String nodeClass, String instanceProfile) {
    return new InstanceProfileRequest(cluster, nodeClass, null, instanceProfile);
  }

  /** The request's problem, or null when exactly one of role and instanceProfile is set (with cluster and class). */
  public String problem() {
    if (blank(cluster) || blank(nodeClass)) {
      return "an instance profile request needs a cluster and an EC2NodeClass name";
    }
    if (blank(role) == blank(instanceProfile)) {
      return "EC2NodeClass " + nodeClass + " must set exactly one of spec.role and spec.instanceProfile";
    }
    return null;
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}

package dev.farrier.activities.cloud;

/**
 * An EC2NodeClass's {@code spec.role} names an IAM role that does not exist, so no instance profile can hold it: the
 * class is not Ready (its InstanceProfileReady condition False with reason {@link #REASON}) until the role is made or
 * the class changed. Permanent for this pass ({@link Kind#NOT_FOUND}); the status loop tries again on its next one.
 */
public final class RoleNotFoundException extends CloudProviderException {
  /** The reason InstanceProfileReady (and so Ready) carries. */
  public static final String REASON = "RoleNotFound";

  private final String role;

  public RoleNotFoundException(String role, String nodeClass) {
    super(Kind.NOT_FOUND, "IAM role " + role + " of EC2NodeClass " + nodeClass + " does not exist; create it or change spec.role");
    this.role = role;
  }

  public String role() {
    return role;
  }
}

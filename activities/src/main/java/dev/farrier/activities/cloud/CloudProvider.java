package dev.farrier.activities.cloud;

import java.util.List;
import java.util.Optional;

/**
 * The cloud seam. {@code aws} implements it with EC2 and SSM; {@code simulated} in memory (persisted to a file so
 * it survives a worker restart) from real instance-type data.
 *
 * <p>Contracts every implementation keeps:
 * <ul>
 *   <li>{@link #create} is idempotent per NodeClaim: it first looks for a non-terminated instance tagged with the
 *       claim's name and returns it instead of launching a second one.</li>
 *   <li>{@link #delete} checks Farrier's ownership tags ({@code farrier.dev/owner}, the cluster tag, and the
 *       NodeClaim tag when a claim is named) before anything else and throws {@link CloudProviderException.Kind#NOT_OWNED}
 *       when they do not match; it never terminates an instance Farrier did not launch.</li>
 *   <li>Errors are {@link CloudProviderException} with a {@link CloudProviderException.Kind}.</li>
 * </ul>
 */
public interface CloudProvider {
  /** Launches one instance for a NodeClaim from the ranked instance types, or returns the one already launched. */
  Instance create(LaunchRequest request);

  /**
   * Terminates an instance Farrier launched for {@code nodeClaim} in {@code cluster}. Returns the state after the
   * call; an instance already shutting-down, terminated or not found is returned as such (not an error).
   */
  Instance delete(String cluster, String nodeClaim, String instanceId);

  /** The instance, terminated ones included while the cloud still reports them; empty when unknown. */
  Optional<Instance> get(String instanceId);

  /** Every non-terminated instance carrying Farrier's tags for {@code cluster} (for garbage collection). */
  List<Instance> list(String cluster);

  /** The instance types of the region with their offerings (zone, capacity type, price, availability). */
  List<InstanceType> instanceTypes();

  /**
   * Resolves AMI selector terms (id; name with {@code *} wildcards plus owner, default {@code self,amazon}; tags,
   * a {@code *} value matching any value; alias such as {@code al2023@latest} or {@code al2@v20240807}, looked up
   * in the SSM public parameters for the cluster's Kubernetes version) to images. Per architecture only the newest
   * match of each term survives; terms are ORed; an empty list when nothing matches. An alias combined with other
   * terms, or an unknown alias family, is {@link CloudProviderException.Kind#INVALID_REQUEST} (see
   * {@link AmiAlias#validate}). Read-only.
   */
  List<Image> resolveImages(List<AmiSelectorTerm> terms);

  /**
   * Resolves subnet selector terms (id; tags, a {@code *} value matching any value; both ANDed within a term) to
   * the subnets of the region, terms ORed, each subnet once, sorted by id; an empty list when nothing matches (an
   * unknown id is no error). Read-only.
   */
  List<Subnet> resolveSubnets(List<SubnetTerm> terms);

  /**
   * Resolves security-group selector terms (id; group name; tags, a {@code *} value matching any value; ANDed within
   * a term) to security groups, terms ORed, each group once, sorted by id; an empty list when nothing matches.
   * Read-only.
   */
  List<SecurityGroup> resolveSecurityGroups(List<SecurityGroupTerm> terms);

  /**
   * Resolves capacity reservation selector terms (id; tags, a {@code *} value matching any value, and/or instance match
   * criteria, optionally with the owner account; terms ORed) to the reservations that are active in EC2's sense and not
   * yet past their end, each once, sorted by id, with the instances each can still take; an empty list when nothing
   * matches (an unknown id is no error). Read-only. A cloud without reservations returns none.
   */
  default List<CapacityReservation> resolveCapacityReservations(List<CapacityReservationTerm> terms) {
    return List.of();
  }

  /**
   * The name of the instance profile an EC2NodeClass's nodes launch with.
   * <ul>
   *   <li>{@code instanceProfile} set: it must exist ({@link CloudProviderException.Kind#NOT_FOUND} otherwise); its
   *       name is returned, nothing is changed.</li>
   *   <li>{@code role} set: Farrier's own profile for this cluster and class, named by
   *       {@link InstanceProfileNames#managed} and tagged {@code farrier.dev/owner}, the cluster tag and the
   *       EC2NodeClass tag, is created if absent and holds exactly {@code role} (a previous role is swapped out). A
   *       missing role is {@code NOT_FOUND}; a profile of that name without Farrier's tags for this cluster is
   *       {@code NOT_OWNED} and left alone. Idempotent: the name is deterministic, so a repeated or retried call
   *       finds the profile and changes nothing when it already holds the role.</li>
   * </ul>
   * Neither or both set is {@code INVALID_REQUEST} ({@link InstanceProfileRequest#problem}).
   */
  String resolveInstanceProfile(InstanceProfileRequest request);

  /**
   * The cloud took this offering back (a spot interruption) or has no capacity for it: {@link #instanceTypes} reports
   * it {@code available=false} and {@link #create} skips it for a while (a few minutes, as long as spot capacity
   * that was just reclaimed is unlikely to return), then it is offered again. Idempotent: marking an offering again
   * extends the same mark. Never fails for an unknown instance type or zone (it simply matches nothing).
   *
   * @param capacityType {@code spot} or {@code on-demand}
   * @param reason       why, for logs (e.g. "SpotInterruption of i-0abc")
   */
  void markUnavailable(String instanceType, String zone, String capacityType, String reason);
}

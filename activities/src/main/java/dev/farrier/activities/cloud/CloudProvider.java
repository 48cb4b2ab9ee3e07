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
   * Resolves AMI selector terms (id; name with {@code *} wildcards plus owner; tags; alias such as
   * {@code al2023@latest} or {@code al2@v20240807}) to images. Per architecture only the newest match of each
   * term survives; terms are ORed.
   */
  List<Image> resolveImages(List<AmiSelectorTerm> terms);

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

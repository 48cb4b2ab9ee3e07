package dev.farrier.activities.gc;

import dev.farrier.activities.ProviderIds;
import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.crd.NodePoolHash;
import dev.farrier.activities.kube.Cluster;
import dev.farrier.workflows.model.WellKnown;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles the cloud with the cluster's NodeClaims, in both directions, after a grace period:
 * <ul>
 *   <li>an instance with Farrier's tags for this cluster that no NodeClaim owns, launched longer than
 *       {@code grace} ago, is terminated (a launch whose claim was deleted, a crash between launch and rollback).
 *       A claim owns the instance its {@code providerID} names; a claim without a providerID yet (its launch in
 *       flight) owns every instance tagged with its name. So a second instance tagged with a claim that records
 *       another one (a retried launch that did not find the first, e.g. in an eventually consistent
 *       DescribeInstances) is collected instead of running unaccounted forever;</li>
 *   <li>a NodeClaim Farrier created whose instance is gone (terminated or unknown), launched longer than
 *       {@code grace} ago, is deleted with its Node (the instance was terminated behind Farrier's back).</li>
 * </ul>
 * The grace keeps a launch in flight (instance before claim status, claim before instance) safe. Idempotent and
 * stateless: every pass decides from what it reads, and each step (terminate, delete) is itself idempotent.
 * Termination goes through {@link CloudProvider#delete}, so an instance without Farrier's ownership tags is never
 * touched.
 */
public final class GarbageCollector {
  private static final Logger log = LoggerFactory.getLogger(GarbageCollector.class);

  private final Cluster cluster;
  private final CloudProvider cloud;
  private final CloudSweep sweep;
  private final String clusterName;
  private final Clock clock;
  private final Duration grace;

  public GarbageCollector(Cluster cluster, CloudProvider cloud, CloudSweep sweep, String clusterName, Clock clock, Duration grace) {
    this.cluster = cluster;
    this.cloud = cloud;
    this.sweep = sweep;
    this.clusterName = clusterName;
    this.clock = clock;
    this.grace = grace;
  }

  /** What one pass did. */
  public record Pass(List<String> terminatedInstances, List<String> deletedNodeClaims) {}

  public Pass collect() {
    Instant cutoff = clock.instant().minus(grace);
    List<NodeClaim> claims = cluster.listNodeClaims();
    Map<String, String> instanceByClaim = new HashMap<>();
    claims.forEach(c -> instanceByClaim.put(c.getMetadata().getName(),
        c.getStatus() == null ? null : ProviderIds.instanceId(c.getStatus().providerID())));
    List<Instance> instances = cloud.list(clusterName);
    List<String> terminated = instances.stream()
        .filter(i -> !owned(i, instanceByClaim))
        .filter(i -> i.launchTime() != null && i.launchTime().isBefore(cutoff))
        .filter(i -> !"shutting-down".equals(i.state()))
        .map(this::terminateOrphan).flatMap(Optional::stream).toList();
    List<String> deleted = claims.stream()
        .filter(c -> NodePoolHash.VERSION.equals(c.getMetadata().getAnnotations() == null ? null
            : c.getMetadata().getAnnotations().get(WellKnown.NODEPOOL_HASH_VERSION_ANNOTATION)))
        .filter(c -> c.getStatus() != null && ProviderIds.instanceId(c.getStatus().providerID()) != null)
        .filter(c -> launchedBefore(c, cutoff))
        .map(this::deleteIfInstanceGone).flatMap(Optional::stream).toList();
    sweep.sweep(clusterName);
    return new Pass(terminated, deleted);
  }

  /** Whether a claim owns {@code instance}: its claim records it, or records no instance yet. */
  private static boolean owned(Instance instance, Map<String, String> instanceByClaim) {
    String claim = instance.tags().getOrDefault(WellKnown.TAG_NODECLAIM, "");
    if (!instanceByClaim.containsKey(claim)) {
      return false;
    }
    String recorded = instanceByClaim.get(claim);
    return recorded == null || recorded.equals(instance.id());
  }

  private Optional<String> terminateOrphan(Instance instance) {
    String claim = instance.tags().get(WellKnown.TAG_NODECLAIM);
    try {
      Instance after = cloud.delete(clusterName, claim, instance.id());
      log.info("gc terminated orphan instance={} nodeclaim={} launched={} state={} reason=no-nodeclaim-owns-it", instance.id(), claim,
          instance.launchTime(), after.state());
      return Optional.of(instance.id());
    } catch (CloudProviderException e) {
      log.warn("gc left instance instance={} nodeclaim={} reason=\"{}\"", instance.id(), claim, e.getMessage());
      return Optional.empty();
    }
  }

  private Optional<String> deleteIfInstanceGone(NodeClaim claim) {
    String name = claim.getMetadata().getName();
    String instanceId = ProviderIds.instanceId(claim.getStatus().providerID());
    Optional<Instance> instance = cloud.get(instanceId);
    if (instance.isPresent() && !"terminated".equals(instance.get().state())) {
      return Optional.empty();
    }
    String nodeName = claim.getStatus().nodeName();
    if (nodeName != null) {
      cluster.deleteNode(nodeName);
      cluster.removeNodeFinalizer(nodeName, WellKnown.TERMINATION_FINALIZER);
    }
    cluster.deleteNodeClaim(name);
    cluster.removeNodeClaimFinalizer(name, WellKnown.TERMINATION_FINALIZER);
    log.info("gc deleted nodeclaim nodeclaim={} instance={} node={} reason=instance-{}", name, instanceId, nodeName,
        instance.map(Instance::state).orElse("not-found"));
    return Optional.of(name);
  }

  private static boolean launchedBefore(NodeClaim claim, Instant cutoff) {
    Optional<Condition> launched = Conditions.find(claim.getStatus().conditionsOrEmpty(), NodeClaimStatus.LAUNCHED);
    String since = launched.map(Condition::lastTransitionTime).orElse(claim.getMetadata().getCreationTimestamp());
    try {
      return since != null && Instant.parse(since).isBefore(cutoff);
    } catch (DateTimeParseException e) {
      return false;
    }
  }
}

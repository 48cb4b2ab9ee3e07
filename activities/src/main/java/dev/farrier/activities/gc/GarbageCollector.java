package dev.farrier.activities.gc;

import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.Ownership;
import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolStatus;
import dev.farrier.activities.kube.ClusterEvent;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.EventSink;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.activities.kube.ObjectNotFoundException;
import dev.farrier.activities.kube.StatusWriter;
import dev.farrier.activities.views.ProviderIds;
import dev.farrier.workflows.EventReasons;
import dev.farrier.model.WellKnown;
import dev.farrier.activities.metrics.MetricCatalog;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles the cloud with the cluster's NodeClaims, in both directions, after a grace period, and never in bulk:
 * <ul>
 *   <li>an instance that is Farrier's for this cluster ({@link Ownership}: exact tags) that no NodeClaim owns, launched
 *       longer than {@code grace} ago, is terminated (a launch whose claim was deleted, a crash between launch and
 *       rollback). A claim owns the instance its {@code providerID} names; a claim without a providerID yet (its
 *       launch in flight) owns every instance tagged with its name. So a second instance tagged with a claim that
 *       records another one (a retried launch that did not find the first) is collected;</li>
 *   <li>a NodeClaim Farrier created, launched longer than {@code grace} ago, whose instance the cloud positively
 *       reports gone (not found when described by id, or terminated) on two passes at least {@code confirmAfter}
 *       apart, is handed to the normal termination path: its deletion is requested, so its finalizer holds it while
 *       the disruption planner's {@code deleted} command taints, drains and deletes the Node and then the claim. A
 *       claim whose instance cannot be read (an error, throttling) is not gone.</li>
 * </ul>
 * A cloud that answers "not found" for everything (wrong region, endpoint or account) must not empty the cluster:
 * when more than {@code maxGoneShare} of the claims checked (at least one more than one claim) look gone, or as large a
 * share of the instances look orphaned, the pass deletes and terminates nothing, and says so: a log line, the
 * {@value #HALTED_CONDITION} condition and a Warning Event on each affected NodePool, and the {@code farrier_gc_halted_total}
 * counter. The condition is cleared by the next pass that is not halted.
 *
 * <p>The first sighting of a gone instance is kept in memory: a restarted worker starts the wait again (the safe side).
 * Termination goes through {@link CloudProvider#delete}, which checks ownership again.
 */
public final class GarbageCollector {
  private static final Logger log = LoggerFactory.getLogger(GarbageCollector.class);
  public static final String HALTED_CONDITION = "GarbageCollectionHalted";

  private final ClusterReader reader;
  private final NodeClaimStore claims;
  private final StatusWriter status;
  private final EventSink events;
  private final CloudProvider cloud;
  private final CloudSweep sweep;
  private final String clusterName;
  private final Clock clock;
  private final GcPolicy policy;
  private final Counter halted;
  private final AtomicInteger goneGauge = new AtomicInteger();
  /** Claim name to when its instance was first seen gone (cleared when seen alive again). */
  private final Map<String, Instant> firstSeenGone = new ConcurrentHashMap<>();

  public <C extends ClusterReader & NodeClaimStore & StatusWriter & EventSink> GarbageCollector(C cluster, CloudProvider cloud,
      CloudSweep sweep, String clusterName, Clock clock, GcPolicy policy, MeterRegistry meters) {
    this.reader = cluster;
    this.claims = cluster;
    this.status = cluster;
    this.events = cluster;
    this.cloud = cloud;
    this.sweep = sweep;
    this.clusterName = clusterName;
    this.clock = clock;
    this.policy = policy;
    this.halted = MetricCatalog.GC_HALTED.counter(meters);
    MetricCatalog.GC_INSTANCES_GONE.gauge(meters, goneGauge, AtomicInteger::get);
  }

  /**
   * What one pass did: instances terminated, claims whose deletion it requested, claims whose instance was seen gone
   * for the first time (waiting for the second sighting), and why it halted (null when it did not).
   */
  public record Pass(List<String> terminatedInstances, List<String> deletedNodeClaims, List<String> suspectedNodeClaims,
      String haltedBecause) {}

  public Pass collect() {
    Instant now = clock.instant();
    Instant cutoff = now.minus(policy.grace());
    List<NodeClaim> all = claims.listNodeClaims();
    Map<String, String> instanceByClaim = new HashMap<>();
    all.forEach(c -> instanceByClaim.put(c.getMetadata().getName(),
        c.getStatus() == null ? null : ProviderIds.instanceId(c.getStatus().providerID())));
    List<Instance> instances = cloud.list(clusterName).stream().filter(i -> Ownership.owns(i.tags(), clusterName)).toList();
    List<Instance> orphans = instances.stream()
        .filter(i -> !owned(i, instanceByClaim))
        .filter(i -> i.launchTime() != null && i.launchTime().isBefore(cutoff))
        .filter(i -> !"shutting-down".equals(i.state()))
        .toList();
    List<NodeClaim> checked = all.stream()
        .filter(Ownership::launchedByFarrier)
        .filter(c -> c.getMetadata().getDeletionTimestamp() == null)
        .filter(c -> c.getStatus() != null && ProviderIds.instanceId(c.getStatus().providerID()) != null)
        .filter(c -> launchedBefore(c, cutoff))
        .toList();
    List<NodeClaim> gone = new ArrayList<>();
    Set<String> unknown = new TreeSet<>();
    for (NodeClaim claim : checked) {
      switch (instanceGone(claim)) {
        case GONE -> gone.add(claim);
        case UNKNOWN -> unknown.add(claim.getMetadata().getName());
        case PRESENT -> { }
      }
    }
    Set<String> goneNames = new TreeSet<>(gone.stream().map(c -> c.getMetadata().getName()).toList());
    firstSeenGone.keySet().removeIf(name -> !goneNames.contains(name) && !unknown.contains(name));
    goneNames.forEach(name -> firstSeenGone.putIfAbsent(name, now));
    goneGauge.set(goneNames.size());

    String haltReason = haltReason(gone.size(), checked.size(), orphans.size(), instances.size());
    Set<String> affectedPools = new TreeSet<>();
    gone.forEach(c -> affectedPools.add(nodePool(c)));
    orphans.forEach(i -> affectedPools.add(i.tags().get(WellKnown.TAG_NODEPOOL)));
    if (haltReason != null) {
      halt(haltReason, affectedPools);
      return new Pass(List.of(), List.of(), List.copyOf(goneNames), haltReason);
    }
    clearHalt();
    List<String> deleted = new ArrayList<>();
    List<String> suspected = new ArrayList<>();
    for (NodeClaim claim : gone) {
      String name = claim.getMetadata().getName();
      if (firstSeenGone.get(name).isAfter(now.minus(policy.confirmAfter()))) {
        suspected.add(name);
        log.info("gc instance looks gone, confirming on a later pass nodeclaim={} instance={} since={}", name,
            ProviderIds.instanceId(claim.getStatus().providerID()), firstSeenGone.get(name));
      } else {
        requestTermination(claim);
        deleted.add(name);
      }
    }
    List<String> terminated = orphans.stream().map(this::terminateOrphan).flatMap(Optional::stream).toList();
    sweep.sweep(clusterName);
    return new Pass(terminated, deleted, suspected, null);
  }

  /** Why this pass must delete nothing, or null: too large a share of the fleet looks gone at once. */
  private String haltReason(int gone, int checked, int orphans, int instances) {
    if (gone > policy.maxGone(checked)) {
      return gone + " of " + checked + " NodeClaims' instances look gone at once (at most " + policy.maxGone(checked)
          + " are removed in one pass): check the worker's region, endpoint and credentials; nothing was deleted. If the"
          + " instances are really gone, delete their NodeClaims to remove them through the normal termination path";
    }
    if (orphans > policy.maxGone(instances)) {
      return orphans + " of " + instances + " instances look orphaned at once (no NodeClaim owns them; at most "
          + policy.maxGone(instances) + " are terminated in one pass): check that the NodeClaims are readable; nothing was"
          + " terminated";
    }
    return null;
  }

  private void halt(String reason, Set<String> pools) {
    halted.increment();
    log.error("gc halted, deleting nothing cluster={} nodepools={} reason=\"{}\"", clusterName, pools, reason);
    Condition condition = Condition.of(HALTED_CONDITION, Condition.TRUE, "TooManyInstancesGone", reason, clock.instant());
    for (String pool : pools) {
      if (pool == null) {
        continue;
      }
      try {
        status.patchNodePoolStatus(pool, new NodePoolStatus(null, null, List.of(condition)));
        events.recordEvent(new ClusterEvent(NodePool.KIND, pool, "Warning", HALTED_CONDITION, reason));
      } catch (ObjectNotFoundException e) {
        log.info("gc halted for a nodepool that is gone nodepool={}", pool);
      } catch (RuntimeException e) {
        log.warn("gc halt not recorded on nodepool={}: {}", pool, e.toString());
      }
    }
  }

  private void clearHalt() {
    for (NodePool pool : reader.listNodePools()) {
      var conditions = pool.getStatus() == null || pool.getStatus().conditions() == null ? List.<Condition>of()
          : pool.getStatus().conditions();
      if (Conditions.isTrue(conditions, HALTED_CONDITION)) {
        try {
          status.patchNodePoolStatus(pool.getMetadata().getName(), new NodePoolStatus(null, null, List.of(
              Condition.of(HALTED_CONDITION, Condition.FALSE, "Collecting", "", clock.instant()))));
          log.info("gc resumed nodepool={}", pool.getMetadata().getName());
        } catch (RuntimeException e) {
          log.warn("gc halt not cleared on nodepool={}: {}", pool.getMetadata().getName(), e.toString());
        }
      }
    }
  }

  private enum Seen { PRESENT, GONE, UNKNOWN }

  /** Gone only on the cloud's positive word for this id: not found, or terminated. An error proves nothing. */
  private Seen instanceGone(NodeClaim claim) {
    String instanceId = ProviderIds.instanceId(claim.getStatus().providerID());
    try {
      Optional<Instance> instance = cloud.get(instanceId);
      return instance.isEmpty() || "terminated".equals(instance.get().state()) ? Seen.GONE : Seen.PRESENT;
    } catch (RuntimeException e) {
      log.warn("gc cannot read instance, not treating it as gone nodeclaim={} instance={}: {}", claim.getMetadata().getName(),
          instanceId, e.toString());
      return Seen.UNKNOWN;
    }
  }

  /**
   * The termination path, not a bare delete: the deletion request leaves the claim held by its finalizer, and the
   * planner's {@code deleted} command runs the replacement workflow that taints, drains and then deletes Node and claim.
   */
  private void requestTermination(NodeClaim claim) {
    String name = claim.getMetadata().getName();
    String instanceId = ProviderIds.instanceId(claim.getStatus().providerID());
    String message = "instance " + instanceId + " is gone (the cloud reported it gone twice, " + policy.confirmAfter().toMinutes()
        + "+ minutes apart): removing the NodeClaim through the termination path";
    try {
      events.recordEvent(new ClusterEvent(NodeClaim.KIND, name, "Warning", EventReasons.INSTANCE_GONE, message));
    } catch (RuntimeException e) {
      log.warn("event not recorded nodeclaim={}: {}", name, e.toString());
    }
    claims.deleteNodeClaim(name);
    firstSeenGone.remove(name);
    log.info("gc requested deletion of nodeclaim nodeclaim={} instance={} node={} reason=instance-gone", name, instanceId,
        claim.getStatus().nodeName());
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

  private static String nodePool(NodeClaim claim) {
    return claim.getMetadata().getLabels() == null ? null : claim.getMetadata().getLabels().get(WellKnown.NODEPOOL_LABEL);
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

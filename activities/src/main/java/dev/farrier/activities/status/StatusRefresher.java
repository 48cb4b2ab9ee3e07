package dev.farrier.activities.status;

import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.aws.EphemeralStorage;
import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassStatus;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimTemplateSpec;
import dev.farrier.activities.crd.NodeOverlay;
import dev.farrier.activities.crd.NodeOverlayStatus;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolStatus;
import dev.farrier.activities.crd.RequirementWithMinValues;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.activities.kube.EventSink;
import dev.farrier.activities.kube.StatusWriter;
import dev.farrier.activities.kube.ClusterEvent;
import dev.farrier.activities.nodeclass.NodeClassImages;
import dev.farrier.activities.nodeclass.NodeClassLaunches;
import dev.farrier.activities.nodepool.RegistrationHealth;
import dev.farrier.activities.provisioning.NodePoolValidation;
import dev.farrier.activities.views.InstanceTypeViews;
import dev.farrier.activities.views.NodeOverlayViews;
import dev.farrier.activities.views.ResourceQuantities;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.NodeOverlays;
import dev.farrier.planner.OfferingCapacity;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the status of NodeOverlays (ValidationSucceeded, Ready), EC2NodeClasses (resolved AMIs, subnets, security groups, instance profile and capacity
 * reservations, their conditions
 * and Ready; see {@link NodeClassResolution}) and NodePools (resources, nodes, ValidationSucceeded,
 * NodeClassReady, Ready; NodeRegistrationHealthy back to Unknown when the pool or its class changes, see
 * {@link RegistrationHealth}) true, and records an Event whenever a Ready condition changes, so a user who writes a
 * selector that matches nothing or points a NodePool at a missing class sees why in {@code kubectl describe}.
 * Stateless and idempotent: each pass derives everything from the cluster and the cloud, so the worker simply runs
 * it on a timer (no workflow needed), and a pass that changes nothing writes nothing.
 */
public final class StatusRefresher {
  private static final Logger log = LoggerFactory.getLogger(StatusRefresher.class);
  static final String NODE_CLASS_READY = "NodeClassReady";
  /** Karpenter v1's condition for a NodePool whose spec cannot be used ({@link NodePoolValidation}). */
  public static final String VALIDATION_SUCCEEDED = "ValidationSucceeded";
  /** Farrier's condition for a NodePool every offering of which is out of capacity now (not part of Ready). */
  public static final String CAPACITY_AVAILABLE = "CapacityAvailable";
  static final String VALIDATION_FAILED = "ValidationFailed";
  /** Karpenter's reason for a NodeOverlay that conflicts with another of the same weight. */
  public static final String OVERLAY_CONFLICT = "Conflict";

  private final ClusterReader reader;
  private final NodeClaimStore claims;
  private final EventSink events;
  private final StatusWriter status;
  private final CloudProvider cloud;
  private final String clusterName;
  private final Clock clock;

  public <C extends ClusterReader & NodeClaimStore & EventSink & StatusWriter> StatusRefresher(C cluster,
      CloudProvider cloud, String clusterName, Clock clock) {
    this.reader = cluster;
    this.claims = cluster;
    this.events = cluster;
    this.status = cluster;
    this.clusterName = clusterName;
    this.cloud = cloud;
    this.clock = clock;
  }

  public void refresh() {
    Map<String, Condition> classReady = new HashMap<>();
    Map<String, EC2NodeClass> classes = new HashMap<>();
    for (EC2NodeClass nodeClass : reader.listNodeClasses()) {
      classes.put(nodeClass.getMetadata().getName(), nodeClass);
      try {
        classReady.put(nodeClass.getMetadata().getName(), refresh(nodeClass));
      } catch (RuntimeException e) {
        // Its NodePools then say the class is not ready; the next pass tries again.
        log.warn("node class status not refreshed nodeclass={}: {}", nodeClass.getMetadata().getName(), e.toString());
        classReady.put(nodeClass.getMetadata().getName(), Condition.of(EC2NodeClassStatus.READY, Condition.UNKNOWN,
            "StatusUnknown", "status not refreshed: " + e.getMessage(), clock.instant()));
      }
    }
    var claims = this.claims.listNodeClaims();
    var pools = reader.listNodePools();
    for (NodePool pool : pools) {
      try {
        refresh(pool, classReady, classes, claims);
      } catch (RuntimeException e) {
        // One NodePool whose status cannot be written never stops the others'; the next pass tries again.
        log.warn("nodepool status not refreshed nodepool={}: {}", pool.getMetadata().getName(), e.toString());
      }
    }
    refreshOverlays(pools, classes);
  }

  /**
   * Each NodeOverlay's ValidationSucceeded and Ready, as Karpenter's nodeoverlay controller writes them: True, or False
   * with reason {@code Conflict} and the overlay of the same weight it conflicts with ({@link NodeOverlays}); a Warning
   * Event when one turns False. The planning rounds leave a conflicting overlay out by the same rule, and it stops no
   * other overlay nor any NodePool.
   */
  private void refreshOverlays(List<NodePool> pools, Map<String, EC2NodeClass> classes) {
    var overlays = reader.listNodeOverlays();
    if (overlays.isEmpty()) {
      return;
    }
    var resolved = NodeOverlayViews.resolve(overlays, pools, classes, cloud.instanceTypes());
    var now = clock.instant();
    for (NodeOverlay overlay : overlays) {
      var name = overlay.getMetadata().getName();
      try {
        String conflict = resolved.conflicts().get(name);
        Condition validation = conflict == null
            ? Condition.of(NodeOverlayStatus.VALIDATION_SUCCEEDED, Condition.TRUE, NodeOverlayStatus.VALIDATION_SUCCEEDED, "", now)
            : Condition.of(NodeOverlayStatus.VALIDATION_SUCCEEDED, Condition.FALSE, OVERLAY_CONFLICT, conflict, now);
        Condition ready = readyFrom(validation);
        var before = overlay.getStatus() == null ? null : Conditions.find(overlay.getStatus().conditions(), NodeOverlayStatus.READY).orElse(null);
        status.patchNodeOverlayStatus(name, new NodeOverlayStatus(List.of(validation, ready)));
        announce(NodeOverlay.KIND, name, before, ready);
      } catch (RuntimeException e) {
        log.warn("nodeoverlay status not refreshed nodeoverlay={}: {}", name, e.toString());
      }
    }
  }

  /** Ready as the condition that decides it says: True with reason Ready, else that condition's reason and message. */
  private static Condition readyFrom(Condition deciding) {
    return new Condition("Ready", deciding.status(), null, deciding.lastTransitionTime(),
        deciding.isTrue() ? "Ready" : deciding.reason(), deciding.message());
  }

  /** One class's status; a failure to write it (or a bug) leaves the other classes' passes standing. */
  private Condition refresh(EC2NodeClass nodeClass) {
    var name = nodeClass.getMetadata().getName();
    var resolved = NodeClassResolution.resolve(cloud, clusterName, nodeClass, clock.instant());
    var before = nodeClass.getStatus() == null ? null : Conditions.find(nodeClass.getStatus().conditionsOrEmpty(), EC2NodeClassStatus.READY).orElse(null);
    status.patchNodeClassStatus(name, resolved.status());
    announce(EC2NodeClass.KIND, name, before, resolved.ready());
    return resolved.ready();
  }

  private void refresh(NodePool pool, Map<String, Condition> classReady, Map<String, EC2NodeClass> classes, List<NodeClaim> claims) {
    var name = pool.getMetadata().getName();
    var spec = pool.getSpec() == null || pool.getSpec().template() == null ? null : pool.getSpec().template().spec();
    var ref = spec == null ? null : spec.nodeClassRef();
    var now = clock.instant();
    List<String> problems = NodePoolValidation.problems(pool, ref == null ? null : classes.get(ref.name()));
    Condition validation = problems.isEmpty() ? Condition.of(VALIDATION_SUCCEEDED, Condition.TRUE, VALIDATION_SUCCEEDED, "", now)
        : Condition.of(VALIDATION_SUCCEEDED, Condition.FALSE, VALIDATION_FAILED, String.join("; ", problems), now);
    Condition classCondition;
    if (ref == null || !EC2NodeClass.KIND.equals(ref.kind())) {
      classCondition = Condition.of(NODE_CLASS_READY, Condition.FALSE, "NodeClassNotFound",
          "nodeClassRef must name an EC2NodeClass (group karpenter.k8s.aws)", now);
    } else if (!classReady.containsKey(ref.name())) {
      classCondition = Condition.of(NODE_CLASS_READY, Condition.FALSE, "NodeClassNotFound", NodePoolValidation.nodeClassMissing(ref.name()), now);
    } else if (!classReady.get(ref.name()).isTrue()) {
      classCondition = Condition.of(NODE_CLASS_READY, Condition.FALSE, "NodeClassNotReady",
          NodePoolValidation.nodeClassNotReady(ref.name(), classReady.get(ref.name())), now);
    } else {
      classCondition = Condition.of(NODE_CLASS_READY, Condition.TRUE, "NodeClassReady", "", now);
    }
    Condition notReady = !validation.isTrue() ? validation : classCondition;
    Condition ready = readyFrom(notReady);
    // As Karpenter counts them: the pool's claims that have a capacity (launched) and are not being deleted, with
    // "nodes" among the resources.
    var mine = claims.stream().filter(c -> name.equals(c.getMetadata().getLabels().get(WellKnown.NODEPOOL_LABEL)))
        .filter(c -> c.getMetadata().getDeletionTimestamp() == null)
        .filter(c -> c.getStatus() != null && c.getStatus().capacity() != null && !c.getStatus().capacity().isEmpty()).toList();
    Resources resources = mine.stream().map(c -> ResourceQuantities.fromQuantities(c.getStatus().capacity()))
        .reduce(Resources.ZERO, Resources::plus);
    Map<String, Quantity> resourceList = new LinkedHashMap<>(ResourceQuantities.toQuantities(resources));
    resourceList.putIfAbsent("ephemeral-storage", new Quantity("0"));
    resourceList.put("nodes", new Quantity(Integer.toString(mine.size())));
    var before = pool.getStatus() == null ? null : Conditions.find(pool.getStatus().conditions(), "Ready").orElse(null);
    List<Condition> conditions = new ArrayList<>(List.of(validation, classCondition, ready));
    Condition capacity = ready.isTrue() ? capacity(spec, classes.get(ref.name()), now) : null;
    if (capacity != null) {
      conditions.add(capacity);
    }
    EC2NodeClass nodeClass = ref == null ? null : classes.get(ref.name());
    Condition registrationReset = RegistrationHealth.resetIfStale(pool, nodeClass, now);
    if (registrationReset != null) {
      conditions.add(registrationReset);
    }
    status.patchNodePoolStatus(name, new NodePoolStatus(resourceList, (long) mine.size(), conditions,
        nodeClass == null ? null : nodeClass.getMetadata().getGeneration()));
    announce(NodePool.KIND, name, before, ready);
    if (capacity != null) {
      announceCapacity(name, pool.getStatus() == null ? null : Conditions.find(pool.getStatus().conditions(), CAPACITY_AVAILABLE).orElse(null),
          capacity);
    }
  }

  /**
   * Whether any offering the NodePool allows is offered now ({@link OfferingCapacity}), from the catalogue the planner
   * reads: False when the cloud has none left for it (capacity errors mark offerings unavailable for a few minutes).
   */
  private Condition capacity(NodeClaimTemplateSpec spec, EC2NodeClass nodeClass, Instant now) {
    var archs = NodeClassImages.fromStatus(nodeClass).keySet();
    // Storage does not change which offerings exist: the default root volume will do.
    var types = InstanceTypeViews.instanceTypes(cloud.instanceTypes(), archs, EphemeralStorage.DEFAULT,
        NodeClassLaunches.amiFamily(nodeClass));
    var offerings = OfferingCapacity.of(spec.requirementsOrEmpty().stream().map(RequirementWithMinValues::toRequirement).toList(), types);
    if (offerings.exhausted()) {
      return Condition.of(CAPACITY_AVAILABLE, Condition.FALSE, "InsufficientCapacity", "every one of the " + offerings.allowed()
          + " offerings (instance type, zone, capacity type) this NodePool allows is out of capacity now; they are offered again"
          + " a few minutes after the cloud ran out", now);
    }
    return Condition.of(CAPACITY_AVAILABLE, Condition.TRUE, CAPACITY_AVAILABLE, offerings.available() + " of " + offerings.allowed()
        + " offerings available", now);
  }

  /** One Event when a NodePool runs out of capacity, and one when it has some again. */
  private void announceCapacity(String name, Condition before, Condition now) {
    if (before == null ? now.isTrue() : Objects.equals(before.status(), now.status())) {
      return;
    }
    log.info("capacity changed nodepool={} available={} message=\"{}\"", name, now.status(), now.message());
    try {
      events.recordEvent(new ClusterEvent(NodePool.KIND, name, now.isTrue() ? ClusterEvent.NORMAL : ClusterEvent.WARNING,
          now.isTrue() ? CAPACITY_AVAILABLE : now.reason(), now.isTrue() ? "capacity is offered again: " + now.message() : now.message()));
    } catch (RuntimeException e) {
      log.warn("event not recorded kind=NodePool name={}: {}", name, e.toString());
    }
  }

  /** One Event per change of Ready or of its reason (and one the first time it is False), never one per pass. */
  private void announce(String kind, String name, Condition before, Condition now) {
    boolean changed = before == null ? !now.isTrue()
        : !Objects.equals(before.status(), now.status()) || !now.isTrue() && !Objects.equals(before.reason(), now.reason());
    if (!changed) {
      return;
    }
    var type = now.isTrue() ? ClusterEvent.NORMAL : ClusterEvent.WARNING;
    var reason = now.isTrue() ? "Ready" : now.reason();
    log.info("status changed kind={} name={} ready={} reason={} message={}", kind, name, now.status(), now.reason(), now.message());
    try {
      events.recordEvent(new ClusterEvent(kind, name, type, reason, now.isTrue() ? kind + " is ready" : now.message()));
    } catch (RuntimeException e) {
      log.warn("event not recorded kind={} name={}: {}", kind, name, e.toString());
    }
  }

}

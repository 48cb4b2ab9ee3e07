package dev.farrier.activities.planning;

import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.Ownership;
import dev.farrier.activities.cloud.aws.EphemeralStorage;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolHash;
import dev.farrier.activities.crd.RequirementWithMinValues;
import dev.farrier.activities.disruption.ConsolidationViews;
import dev.farrier.activities.disruption.DisruptionBlockedEvents;
import dev.farrier.activities.disruption.DisruptionConditionWriter;
import dev.farrier.activities.disruption.PodEventTimes;
import dev.farrier.activities.disruption.PromisedElsewhere;
import dev.farrier.activities.disruption.RepairBlockedEvents;
import dev.farrier.activities.disruption.ReplacementTracker;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.activities.kube.PodEvictor;
import dev.farrier.activities.kube.EventSink;
import dev.farrier.activities.metrics.DisruptionMetrics;
import dev.farrier.activities.nodeclass.DriftFacts;
import dev.farrier.activities.nodeclass.NodeClassImages;
import dev.farrier.activities.nodeclass.NodeClassLaunches;
import dev.farrier.activities.provisioning.NodePoolValidation;
import dev.farrier.activities.provisioning.NodeRoom;
import dev.farrier.activities.provisioning.PromisedPods;
import dev.farrier.activities.provisioning.ProvisioningSnapshots;
import dev.farrier.activities.provisioning.UnschedulableEvents;
import dev.farrier.activities.provisioning.VolumeTopology;
import dev.farrier.activities.rollout.Workloads;
import dev.farrier.activities.views.NamespaceSelectors;
import dev.farrier.activities.views.PodViews;
import dev.farrier.activities.views.ProviderIds;
import dev.farrier.activities.views.ResourceQuantities;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.workflows.activities.PlanProvisioningRequest;
import dev.farrier.workflows.activities.PlanReplacementRequest;
import dev.farrier.workflows.activities.PlanningActivities;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.workflows.activities.RecheckDisruptionRequest;
import dev.farrier.model.ReplacementPlan;
import dev.farrier.model.RolloutBatch;
import dev.farrier.model.WorkloadRef;
import dev.farrier.model.PodRef;
import dev.farrier.model.Resources;
import dev.farrier.model.Taint;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.ClaimConditions;
import dev.farrier.planner.CheaperOfferings;
import dev.farrier.planner.ClaimNamer;
import dev.farrier.planner.ConsolidationView;
import dev.farrier.planner.DisruptionBudget;
import dev.farrier.planner.DisruptionConditions;
import dev.farrier.planner.DisruptionPlanner;
import dev.farrier.planner.DisruptionSnapshot;
import dev.farrier.planner.ExistingNodeView;
import dev.farrier.planner.ExpiryMode;
import dev.farrier.model.GoDurations;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodeClaimView;
import dev.farrier.planner.NodeClassView;
import dev.farrier.planner.NodeConditionView;
import dev.farrier.planner.NodePoolLimits;
import dev.farrier.planner.NodePoolView;
import dev.farrier.planner.OfferingView;
import dev.farrier.planner.PodSpecView;
import dev.farrier.planner.PodsOnNode;
import dev.farrier.planner.ProvisioningPlanner;
import dev.farrier.planner.ProvisioningSnapshot;
import dev.farrier.planner.Repair;
import dev.farrier.planner.ReplacementSnapshot;
import dev.farrier.planner.ResolvedImages;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.MeterRegistry;
import io.temporal.failure.ApplicationFailure;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the cluster and the cloud into the planners' snapshots and lets the pure planners decide. The only writes are
 * the deduplicated Events on a pod that fits nowhere and on a NodePool whose node repairs are held
 * ({@link RepairBlockedEvents}), and the NodeClaims' Drifted, Expired and Consolidatable conditions, both written
 * toward a target and not sent when already there, so every retry is safe.
 */
public class PlanningActivitiesImpl implements PlanningActivities {
  private static final Logger log = LoggerFactory.getLogger(PlanningActivitiesImpl.class);

  private final ClusterReader reader;
  private final NodeClaimStore claims;
  private final PodEvictor pods;
  private final CloudProvider cloud;
  private final ReplacementTracker replacements;
  private final Clock clock;
  private final ProvisioningPlanner provisioning = new ProvisioningPlanner();
  private final DisruptionPlanner disruption = new DisruptionPlanner();
  private final UnschedulableEvents unschedulableEvents;
  private final DisruptionConditionWriter disruptionConditions;
  private final RepairBlockedEvents repairBlocked;
  private final DisruptionBlockedEvents disruptionBlocked;
  private final DisruptionMetrics metrics;
  private final boolean spotToSpot;
  private final Function<List<String>, String> freezeOf;
  /** How long the same reason for the same pod is not recorded again (planning repeats every batch, up to every 10 s). */
  static final java.time.Duration UNSCHEDULABLE_EVENT_WINDOW = java.time.Duration.ofMinutes(10);

  /**
   * With spot-to-spot consolidation off, as Karpenter's default, and no change freeze ever (as for a cluster whose
   * reconciler does not run).
   */
  public <C extends ClusterReader & NodeClaimStore & PodEvictor & EventSink> PlanningActivitiesImpl(C cluster,
      CloudProvider cloud, ReplacementTracker replacements, MeterRegistry meters) {
    this(cluster, cloud, replacements, meters, false, nodePools -> null);
  }

  /**
   * @param spotToSpot Karpenter's SpotToSpotConsolidation gate ({@code farrier.feature-gates.spot-to-spot-consolidation}):
   *                   an underutilized spot node may be replaced by a cheaper spot node, not only deleted
   * @param freezeOf   the change freeze holding the cluster or one of these NodePools, described; null when none does
   *                   (a rollout's plan in one step asks it: {@link dev.farrier.model.RolloutScope#inOneStep})
   */
  public <C extends ClusterReader & NodeClaimStore & PodEvictor & EventSink> PlanningActivitiesImpl(C cluster,
      CloudProvider cloud, ReplacementTracker replacements, MeterRegistry meters,
      boolean spotToSpot, Function<List<String>, String> freezeOf) {
    this(cluster, cloud, replacements, Clock.systemUTC(), meters, spotToSpot, freezeOf);
  }

  <C extends ClusterReader & NodeClaimStore & PodEvictor & EventSink> PlanningActivitiesImpl(C cluster,
      CloudProvider cloud, ReplacementTracker replacements, Clock clock, MeterRegistry meters,
      boolean spotToSpot, Function<List<String>, String> freezeOf) {
    this.spotToSpot = spotToSpot;
    this.freezeOf = freezeOf;
    this.reader = cluster;
    this.claims = cluster;
    this.pods = cluster;
    this.cloud = cloud;
    this.replacements = replacements;
    this.clock = clock;
    this.unschedulableEvents = new UnschedulableEvents(cluster, clock, UNSCHEDULABLE_EVENT_WINDOW);
    this.disruptionConditions = new DisruptionConditionWriter(cluster, clock);
    this.repairBlocked = new RepairBlockedEvents(cluster, clock);
    this.disruptionBlocked = new DisruptionBlockedEvents(cluster, clock);
    this.metrics = new DisruptionMetrics(meters);
  }

  /**
   * Reads pending pods (with their volume zones), existing nodes and in-flight claims with their pods, DaemonSets,
   * NodePools (usage counting claims still launching), instance types and kubelet settings, and lets the planner
   * decide. The one write is a Warning Event on each pod that fits nowhere, at most once per
   * {@link #UNSCHEDULABLE_EVENT_WINDOW} for the same reason ({@link UnschedulableEvents}); a retry writes nothing new.
   */
  /**
   * How the batch's pods are read: one GET for a single pod, else one LIST of every unbound pod (a batch of 500 pods
   * took 2.7 s of GETs; the list is one round trip whatever the batch holds).
   */
  private Function<PodRef, Optional<Pod>> podReader(List<PodRef> pods) {
    if (pods.size() <= 1) {
      return ref -> reader.getPod(ref.namespace(), ref.name());
    }
    Map<String, Pod> unbound = new HashMap<>();
    for (Pod pod : reader.listUnboundPods()) {
      unbound.put(pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName(), pod);
    }
    return ref -> Optional.ofNullable(unbound.get(ref.namespace() + "/" + ref.name()));
  }

  @Override
  public ProvisioningPlan planProvisioning(PlanProvisioningRequest request) {
    NamespaceSelectors namespaces = NamespaceSelectors.lazy(reader::listNamespaces);
    VolumeTopology volumes = new VolumeTopology(reader);
    List<PodSpecView> pending = new ArrayList<>();
    Function<PodRef, Optional<Pod>> read = podReader(request.pods());
    for (var ref : request.pods()) {
      read.apply(ref)
          .filter(p -> Objects.equals(p.getMetadata().getUid(), ref.uid()))
          .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
          .filter(p -> p.getSpec().getNodeName() == null || p.getSpec().getNodeName().isEmpty())
          .ifPresent(p -> {
            try {
              addIfProvisionable(pending, p, namespaces, volumes);
            } catch (RuntimeException e) {
              // One pod Farrier cannot read never stops the batch for the others.
              log.warn("pod left out of the batch pod={}/{} batch={}: {}", ref.namespace(), ref.name(), request.batchId(), e.toString());
            }
          });
    }
    if (pending.isEmpty()) {
      return new ProvisioningPlan(List.of(), List.of());
    }
    var claims = this.claims.listNodeClaims();
    // Pods a claim was created for are the scheduler's to bind while the claim's room is theirs: planning them again
    // would launch a second node for them (a slow scheduler leaves them pending for seconds after the node is up).
    // Those of claims still launching are left out before anything else is read (no node has room: only they hold).
    int held = leaveToScheduler(pending, PromisedPods.held(claims, byUid(pending), node -> NodeRoom.none(), clock.instant()));
    if (pending.isEmpty()) {
      log.info("pods left to the scheduler, a nodeclaim holds room for them batch={} pods={}", request.batchId(), held);
      return new ProvisioningPlan(List.of(), List.of());
    }
    var pools = reader.listNodePools();
    var catalog = cloud.instanceTypes();
    Map<String, List<InstanceTypeView>> types = new HashMap<>();
    Map<String, KubeletSettings> kubelets = new HashMap<>();
    List<NodePoolView> views = new ArrayList<>();
    for (var pool : pools) {
      try {
        plannable(pool).ifPresent(p -> {
          var view = nodePoolView(p.pool(), claims);
          var poolTypes = instanceTypes(catalog, nodeClassArchs(p.nodeClass()), ephemeralStorage(p.nodeClass()));
          types.put(view.name(), poolTypes);
          kubelets.put(view.name(), NodeClassLaunches.kubelet(p.nodeClass()));
          views.add(ProvisioningSnapshots.withInFlightUsage(view, claims, poolTypes));
        });
      } catch (CloudProviderException e) {
        if (e.kind().retryable) {
          throw e;
        }
        log.warn("nodepool left out of the batch, its EC2NodeClass cannot be resolved nodepool={} batch={}: {}",
            pool.getMetadata().getName(), request.batchId(), e.getMessage());
      } catch (RuntimeException e) {
        log.warn("nodepool left out of the batch nodepool={} batch={}: {}", pool.getMetadata().getName(), request.batchId(), e.toString());
      }
    }
    List<Pod> boundPods = reader.listBoundPods();
    // A pod the kube-scheduler bound since the batch's pods were read is its node's: left pending as well, it would
    // take room twice, and another pod its claim was launched for would seem not to fit there and get a node again.
    int boundSince = leaveToScheduler(pending, boundAmong(boundPods, byUid(pending)));
    var existing = ProvisioningSnapshots.existingNodes(reader.listNodes(), boundPods, claims, types, kubelets, namespaces,
        clock.instant());
    // Then those of Initialized claims whose node can still take them (NodeRoom: room, taints, hostname anti-affinity).
    held += leaveToScheduler(pending, PromisedPods.held(claims, byUid(pending), rooms(existing), clock.instant()));
    if (held > 0) {
      log.info("pods left to the scheduler, a nodeclaim holds room for them batch={} pods={}", request.batchId(), held);
    }
    if (boundSince > 0) {
      log.info("pods bound while the batch was planned batch={} pods={}", request.batchId(), boundSince);
    }
    if (pending.isEmpty()) {
      return new ProvisioningPlan(List.of(), List.of());
    }
    var snapshot = new ProvisioningSnapshot(pending, views, types, daemonSetPods(), existing, kubelets);
    var plan = provisioning.plan(snapshot, request.batchId(), ClaimNamer.standard());
    int onExisting = plan.onExisting().stream().mapToInt(e -> e.pods().size()).sum();
    log.info("provisioning planned batch={} pods={} onExisting={} claims={} unschedulable={}", request.batchId(), pending.size(),
        onExisting, plan.claims().size(), plan.unschedulable().size());
    unschedulableEvents.record(plan.unschedulable());
    return plan;
  }

  /**
   * Adds the pod's view to {@code pending}, unless it is a DaemonSet's or a mirror pod: each is tied to one node (a
   * DaemonSet pod by its node affinity's {@code matchFields}, which the planner reads as an empty term), so no new node
   * is ever theirs, and Farrier neither plans them nor records a FailedScheduling on them (whose reason, an empty term,
   * would mislead), as Karpenter's provisioner leaves them out. Each new node's DaemonSet pods are counted by the
   * planner instead.
   */
  private static void addIfProvisionable(List<PodSpecView> pending, Pod pod, NamespaceSelectors namespaces, VolumeTopology volumes) {
    var view = PodViews.of(pod, namespaces, volumes.of(pod));
    if (view.reschedulable()) {
      pending.add(view);
    }
  }

  /** Takes the {@code held} pods out of {@code pending}; returns how many. */
  private static int leaveToScheduler(List<PodSpecView> pending, Set<String> held) {
    int before = pending.size();
    pending.removeIf(p -> held.contains(p.pod().uid()));
    return before - pending.size();
  }

  /** The UIDs of the {@code pending} pods (by UID) that {@code bound} holds: one pass over the bound pods, no set of them. */
  private static Set<String> boundAmong(List<Pod> bound, Map<String, PodSpecView> pending) {
    Set<String> uids = new HashSet<>();
    for (Pod pod : bound) {
      if (pending.containsKey(pod.getMetadata().getUid())) {
        uids.add(pod.getMetadata().getUid());
      }
    }
    return uids;
  }

  private static Map<String, PodSpecView> byUid(List<PodSpecView> pods) {
    Map<String, PodSpecView> out = new HashMap<>();
    pods.forEach(p -> out.put(p.pod().uid(), p));
    return out;
  }

  /** The room the kube-scheduler sees on each registered node, by name (a fresh one each time it is asked). */
  private static Function<String, NodeRoom> rooms(List<ExistingNodeView> existing) {
    Map<String, ExistingNodeView> nodes = new HashMap<>();
    existing.stream().filter(ExistingNodeView::initialized).forEach(n -> nodes.put(n.name(), n));
    return name -> nodes.containsKey(name) ? NodeRoom.of(nodes.get(name)) : null;
  }

  @Override
  public ReplacementPlan planReplacement(PlanReplacementRequest request) {
    var claim = claims.getNodeClaim(request.nodeClaim()).orElse(null);
    if (claim == null) {
      return new ReplacementPlan(null, 0, "nodeclaim " + request.nodeClaim() + " is gone");
    }
    var poolName = claim.getMetadata().getLabels().get(WellKnown.NODEPOOL_LABEL);
    var pool = reader.getNodePool(poolName).orElse(null);
    List<PodSpecView> pods = new ArrayList<>(podsOn(request.nodeName()));
    var replaced = capacity(claim);
    // A multi-node consolidation: one node for the pods of every claim of the group.
    for (String other : request.consolidatedWith()) {
      var member = claims.getNodeClaim(other).orElse(null);
      if (member != null) {
        pods.addAll(podsOn(nodeName(member)));
        replaced = replaced.plus(capacity(member));
      }
    }
    int reschedulable = (int) pods.stream().filter(PodSpecView::reschedulable).count();
    if (pool == null) {
      return new ReplacementPlan(null, reschedulable, "nodepool " + poolName + " of nodeclaim " + request.nodeClaim() + " is gone");
    }
    var plannable = plannable(pool);
    if (plannable.isEmpty()) {
      return new ReplacementPlan(null, reschedulable, "nodepool " + poolName + " cannot be planned (see its ValidationSucceeded"
          + " condition)");
    }
    var view = nodePoolView(pool, claims.listNodeClaims());
    EC2NodeClass nodeClass = plannable.get().nodeClass();
    // A spot node consolidated under a price ceiling is replaced spot-to-spot: spot offerings only, then narrowed as decided.
    boolean spotToSpotReplacement = request.maxPricePerHour() != null
        && WellKnown.CAPACITY_SPOT.equals(claim.getMetadata().getLabels().get(WellKnown.CAPACITY_TYPE_LABEL));
    var types = CheaperOfferings.below(instanceTypes(cloud.instanceTypes(), nodeClassArchs(nodeClass), ephemeralStorage(nodeClass)),
        request.maxPricePerHour(), spotToSpotReplacement);
    var plan = provisioning.planReplacement(new ReplacementSnapshot(request.nodeClaim(), request.replacementName(), pods, view,
        types, daemonSetPods(), replaced, NodeClassLaunches.kubelet(nodeClass)));
    var restricted = CheaperOfferings.restrict(plan, types, request.maxPricePerHour());
    return spotToSpotReplacement ? CheaperOfferings.spotToSpot(restricted, types) : restricted;
  }

  /** Waits until the conditions of every planning round so far are written (for tests: they are written after the round). */
  public void awaitConditionWrites() throws Exception {
    disruptionConditions.awaitWrites(java.time.Duration.ofMinutes(1));
  }

  /**
   * Marks the other claims of each multi-node consolidation with the claim replaced for them
   * ({@link WellKnown#CONSOLIDATED_WITH_ANNOTATION}), so the next rounds leave them to it. A failed write is logged: the
   * next round may then choose them again, and the replacement's recheck sees its group changed.
   */
  private void markGroups(List<DisruptionCommand> commands) {
    for (DisruptionCommand c : commands) {
      for (String other : c.consolidatedWith()) {
        try {
          claims.patchNodeClaimMetadata(other, Map.of(), Map.of(WellKnown.CONSOLIDATED_WITH_ANNOTATION, c.nodeClaim()));
        } catch (RuntimeException e) {
          log.warn("multi-node consolidation not marked nodeclaim={} with={}: {}", other, c.nodeClaim(), e.toString());
        }
      }
    }
  }

  /** The non-terminal pods on the node, read live (what its drain will move); none without a node. */
  private List<PodSpecView> podsOn(String nodeName) {
    return nodeName == null ? List.of()
        : pods.listPodsOnNode(nodeName).stream().filter(p -> !PodViews.terminal(p)).map(PodViews::of).toList();
  }

  private static Resources capacity(NodeClaim claim) {
    return claim.getStatus() == null ? Resources.ZERO : ResourceQuantities.fromQuantities(claim.getStatus().capacity());
  }

  /**
   * Plans drift, expiry and deletion for the NodeClaims Farrier launched. Claims it did not launch (Karpenter's, or a
   * user's) are left alone with a decision that says so: Farrier never terminates their instances, so it must not
   * start draining them either. Then hands the Drifted, Expired and Consolidatable conditions of Farrier's claims that
   * {@link DisruptionConditions} decides from the same snapshot to the {@link DisruptionConditionWriter}, which writes
   * them on its own thread, after the plan is returned (idempotent: merged by type toward that target, an unchanged
   * status keeps its lastTransitionTime, nothing sent when already so); a failed write is logged, never fails the plan.
   * With node repair on ({@link PlanDisruptionRequest#nodeRepair()}), a NodePool whose unhealthy share holds its
   * repairs gets a Warning Event, at most once per {@link RepairBlockedEvents#WINDOW}. A preview plans the same and
   * writes, records and counts nothing.
   */
  @Override
  public DisruptionPlan planDisruption(PlanDisruptionRequest request) {
    var all = claims.listNodeClaims();
    var claims = all.stream().filter(Ownership::launchedByFarrier).toList();
    var snapshot = disruptionSnapshot(all, claims, request.frozen(), request.nodeRepair());
    var plan = disruption.plan(snapshot.snapshot());
    boolean preview = request.purpose() == PlanDisruptionRequest.Purpose.PREVIEW;
    if (!preview) {
      markGroups(plan.commands());
      var conditions = DisruptionConditions.of(snapshot.snapshot());
      disruptionConditions.submit(claims, conditions);
      repairBlocked.record(Repair.of(snapshot.snapshot()).blocked());
      disruptionBlocked.record(plan.decisions());
      metrics.decided(plan.commands());
      metrics.eligible(eligible(snapshot.snapshot(), conditions));
    }
    // The planner knows no NodePool it was not given: say why its claims are left alone.
    List<CandidateDecision> decisions = new ArrayList<>(plan.decisions().stream()
        .map(d -> !d.disrupt() && snapshot.unplannable().contains(d.nodePool()) ? new CandidateDecision(d.nodeClaim(), d.nodeName(), d.nodePool(), false,
            "nodepool " + d.nodePool() + " cannot be planned (see its ValidationSucceeded condition): left alone") : d)
        .toList());
    all.stream().filter(c -> !Ownership.launchedByFarrier(c)).forEach(c -> decisions.add(new CandidateDecision(c.getMetadata().getName(),
        nodeName(c), c.getMetadata().getLabels() == null ? null : c.getMetadata().getLabels().get(WellKnown.NODEPOOL_LABEL), false,
        "not launched by Farrier (no " + WellKnown.NODEPOOL_HASH_VERSION_ANNOTATION + "=" + NodePoolHash.VERSION + "): left alone")));
    if (!plan.commands().isEmpty()) {
      log.info("disruption planned commands={} candidates={}", plan.commands().size(), decisions.size());
    }
    var result = new DisruptionPlan(plan.plannedAtMillis(), plan.commands(), decisions);
    return request.purpose() == PlanDisruptionRequest.Purpose.ROUND ? result.commandsOnly()
        : preview ? result.atMost(DisruptionPlan.MAX_DECISIONS) : result;
  }

  /**
   * A fleet upgrade's next batch, from the same snapshot as {@link #planDisruption} (Farrier's claims only, NodePools
   * that pass validation); writes nothing.
   */
  @Override
  public RolloutBatch planRollout(PlanDisruptionRequest request) {
    if (request.rollout() == null) {
      throw ApplicationFailure.newNonRetryableFailure("planRollout needs a rollout scope", FailureTypes.INVALID_REQUEST);
    }
    var scope = request.rollout();
    if (scope.inOneStep()) {
      String freeze = freezeOf.apply(scope.nodePools());
      if (freeze != null) {
        log.info("rollout batch not planned rollout={} frozen=\"{}\"", scope.workflowId(), freeze);
        return RolloutBatch.frozenBy(freeze);
      }
    }
    var all = claims.listNodeClaims();
    var claims = all.stream().filter(Ownership::launchedByFarrier).toList();
    var batch = disruption.planRollout(disruptionSnapshot(all, claims, request.frozen(), false).snapshot(), scope);
    if (scope.inOneStep()) {
      batch = batch.withWorkloads(workloadsOn(batch.commands()));
    }
    metrics.decided(batch.commands());
    log.info("rollout batch planned rollout={} commands={} remaining={}", scope.workflowId(), batch.commands().size(),
        batch.remaining());
    return batch;
  }

  /** By command's NodeClaim, what runs on its node ({@link Workloads#moved}), from one list of the bound pods. */
  private Map<String, List<WorkloadRef>> workloadsOn(List<DisruptionCommand> commands) {
    Set<String> nodes = commands.stream().map(DisruptionCommand::nodeName).filter(Objects::nonNull).collect(Collectors.toSet());
    Map<String, List<Pod>> podsByNode = nodes.isEmpty() ? Map.of() : reader.listBoundPods().stream()
        .filter(p -> nodes.contains(p.getSpec().getNodeName())).collect(Collectors.groupingBy(p -> p.getSpec().getNodeName()));
    Map<String, List<WorkloadRef>> workloads = new HashMap<>();
    for (DisruptionCommand command : commands) {
      workloads.put(command.nodeClaim(), command.nodeName() == null ? List.of()
          : Workloads.moved(podsByNode.getOrDefault(command.nodeName(), List.of())));
    }
    return workloads;
  }

  @Override
  public CandidateDecision recheckDisruption(RecheckDisruptionRequest request) {
    var all = claims.listNodeClaims();
    var claims = all.stream().filter(Ownership::launchedByFarrier).toList();
    var found = disruptionSnapshot(all, claims, Map.of(), false, request.nodeClaim()).snapshot();
    var own = found.nodeClaims().stream().filter(c -> c.name().equals(request.nodeClaim())).findFirst().orElse(null);
    if (own == null) {
      return new CandidateDecision(request.nodeClaim(), null, null, false, "nodeclaim " + request.nodeClaim() + " is gone");
    }
    // Its replacement is the caller: before its first step it must not hold the claim back from its own plan.
    var snapshot = own.disruptedTaint() ? found : new DisruptionSnapshot(found.nowMillis(), found.nodePools(),
        found.nodeClaims().stream().map(c -> c == own ? c.withoutOwnReplacement() : c).toList(), found.resolvedImages(), found.frozen(),
        found.consolidation());
    Set<String> focus = new HashSet<>(request.consolidatedWith());
    focus.add(request.nodeClaim());
    var plan = disruption.recheck(snapshot, focus);
    // The same consolidation: same reason and, for a multi-node replace, the same group (a smaller one would launch a
    // replacement sized for pods that are not coming).
    boolean still = plan.commands().stream()
        .anyMatch(c -> c.nodeClaim().equals(request.nodeClaim()) && c.reason().equals(request.reason())
            && Set.copyOf(c.consolidatedWith()).equals(Set.copyOf(request.consolidatedWith())));
    var decision = plan.decisions().stream().filter(d -> d.nodeClaim().equals(request.nodeClaim())).findFirst()
        .orElse(new CandidateDecision(own.name(), own.nodeName(), own.nodePool(), false, "not planned"));
    log.info("disruption rechecked nodeclaim={} reason={} still={} decision=\"{}\"", request.nodeClaim(), request.reason(), still,
        decision.reason());
    return new CandidateDecision(decision.nodeClaim(), decision.nodeName(), decision.nodePool(), still, decision.reason());
  }

  /**
   * The voluntary candidates by reason, whatever budgets and do-not-disrupt then allow: claims the conditions mark
   * drifted, and those EC2 recommends rebalancing (their NodePool opted in).
   */
  private static Map<String, Integer> eligible(DisruptionSnapshot snapshot, List<ClaimConditions> conditions) {
    int drifted = (int) conditions.stream()
        .filter(c -> c.set().stream().anyMatch(t -> ClaimConditions.DRIFTED.equals(t.type()))).count();
    int rebalance = (int) snapshot.nodeClaims().stream().filter(c -> c.rebalanceRecommended() && !c.deleting()).count();
    return Map.of("drifted", drifted, "rebalance", rebalance);
  }

  /** The disruption snapshot of Farrier's claims, and the NodePools left out because they cannot be planned. */
  private record Disruptable(DisruptionSnapshot snapshot, Set<String> unplannable) {}

  /** {@code all} every NodeClaim as listed (all are capacity), {@code claims} Farrier's among them (the ones planned). */
  private Disruptable disruptionSnapshot(List<NodeClaim> all, List<NodeClaim> claims, Map<String, String> frozen, boolean nodeRepair) {
    return disruptionSnapshot(all, claims, frozen, nodeRepair, null);
  }

  /** As above; {@code rechecking} the claim whose consolidation is checked again (its group is not held for it), or null. */
  private Disruptable disruptionSnapshot(List<NodeClaim> all, List<NodeClaim> claims, Map<String, String> frozen, boolean nodeRepair,
      String rechecking) {
    List<NodePoolView> pools = new ArrayList<>();
    Map<String, EC2NodeClass> classes = new HashMap<>();
    Set<String> unplannable = new java.util.TreeSet<>();
    for (NodePool pool : reader.listNodePools()) {
      try {
        var plannable = plannable(pool);
        if (plannable.isPresent()) {
          pools.add(nodePoolView(pool, claims));
          if (plannable.get().nodeClass() != null) {
            classes.put(pool.getMetadata().getName(), plannable.get().nodeClass());
          }
          continue;
        }
      } catch (RuntimeException e) {
        log.warn("nodepool left out of disruption planning nodepool={}: {}", pool.getMetadata().getName(), e.toString());
      }
      unplannable.add(pool.getMetadata().getName());
    }
    List<Node> nodeList = reader.listNodes();
    Map<String, Node> nodes = nodeList.stream().collect(Collectors.toMap(n -> n.getMetadata().getName(), n -> n));
    List<Pod> boundPods = reader.listBoundPods();
    Map<String, List<Pod>> podsByNode = boundPods.stream().filter(p -> !PodViews.terminal(p))
        .collect(Collectors.groupingBy(p -> p.getSpec().getNodeName()));
    Set<String> active = replacements.active();
    List<NodeClaimView> plain = claims.stream()
        .map(c -> nodeClaimView(c, nodes.get(nodeName(c)), podsByNode.getOrDefault(nodeName(c), List.of()), active)
            .withNodeConditions(nodeConditions(nodes.get(nodeName(c)))))
        .toList();
    // The pods on nodes being disrupted: a claim launched for them (their replacement) holds room for them until they move.
    Map<String, String> beingDrained = new HashMap<>();
    plain.stream().filter(v -> v.beingDisrupted() && v.nodeName() != null)
        .forEach(v -> podsByNode.getOrDefault(v.nodeName(), List.of()).forEach(p -> beingDrained.put(p.getMetadata().getUid(), v.nodeName())));
    Map<String, NodeClaim> byName = claims.stream().collect(Collectors.toMap(c -> c.getMetadata().getName(), c -> c, (a, b) -> a));
    var now = clock.instant();
    List<ResolvedImages> images = new ArrayList<>();
    Map<String, NodeClassView> nodeClasses = new HashMap<>();
    for (EC2NodeClass nodeClass : reader.listNodeClasses()) {
      NodeClassImages.fromStatus(nodeClass).forEach((arch, ids) -> images.add(new ResolvedImages(nodeClass.getMetadata().getName(), arch, ids)));
      nodeClasses.put(nodeClass.getMetadata().getName(), DriftFacts.nodeClass(nodeClass));
    }
    Map<String, String> poolClasses = new HashMap<>();
    pools.forEach(p -> poolClasses.put(p.name(), p.nodeClassName()));
    List<NodeClaimView> views = plain.stream().map(v -> {
      NodeClaim c = byName.get(v.name());
      String nodeClass = v.nodeClassName() != null ? v.nodeClassName() : poolClasses.get(v.nodePool());
      return v.withPodEvents(PodEventTimes.initializedAt(c), PodEventTimes.lastPodEvent(c, podsByNode.getOrDefault(nodeName(c), List.of())),
          PodEventTimes.nominated(c, now, beingDrained))
          .withDriftFacts(DriftFacts.labels(c, nodes.get(v.nodeName())), DriftFacts.launchedWith(c),
              nodeClass == null ? null : nodeClasses.get(nodeClass));
    }).toList();
    var consolidation = pools.stream().anyMatch(PlanningActivitiesImpl::consolidatesUnderutilized)
        ? consolidationView(pools, classes, all, nodeList, boundPods, podsByNode,
            PromisedElsewhere.of(views, byName, podsByNode, rechecking))
        : null;
    return new Disruptable(new DisruptionSnapshot(clock.millis(), pools, views, images, frozen, consolidation, nodeRepair), unplannable);
  }

  private static boolean consolidatesUnderutilized(NodePoolView pool) {
    return NodePoolView.WHEN_EMPTY_OR_UNDERUTILIZED.equals(pool.consolidationPolicy()) && GoDurations.toMillis(pool.consolidateAfter()) != null;
  }

  /**
   * The cluster as the provisioning scheduler sees it, for consolidating underutilized nodes: every NodeClaim (Farrier's
   * or not: all are capacity), the instance types of each NodePool (archs from its class's resolved images, so the round
   * makes no image lookup), DaemonSets, PodDisruptionBudgets and disruption costs.
   */
  private ConsolidationView consolidationView(List<NodePoolView> pools, Map<String, EC2NodeClass> classes, List<NodeClaim> allClaims,
      List<Node> nodeList, List<Pod> boundPods, Map<String, List<Pod>> podsByNode, Map<String, String> promisedElsewhere) {
    var catalog = cloud.instanceTypes();
    Map<String, List<InstanceTypeView>> types = new HashMap<>();
    Map<String, KubeletSettings> kubelets = new HashMap<>();
    for (NodePoolView pool : pools) {
      EC2NodeClass nodeClass = classes.get(pool.name());
      if (nodeClass != null) {
        types.put(pool.name(), instanceTypes(catalog, NodeClassImages.fromStatus(nodeClass).keySet(), ephemeralStorage(nodeClass)));
        kubelets.put(pool.name(), NodeClassLaunches.kubelet(nodeClass));
      }
    }
    var now = clock.instant();
    NamespaceSelectors namespaces = NamespaceSelectors.lazy(reader::listNamespaces);
    var existing = ProvisioningSnapshots.existingNodes(nodeList, boundPods, allClaims, types, kubelets, namespaces, now);
    Map<String, NodeClaim> claimsByNode = new HashMap<>();
    allClaims.stream().filter(c -> nodeName(c) != null).forEach(c -> claimsByNode.put(nodeName(c), c));
    return ConsolidationViews.of(existing, types, daemonSetPods(), kubelets, podsByNode, reader.listPodDisruptionBudgets(),
        claimsByNode, now, spotToSpot, promisedElsewhere, pendingWithoutRoom(allClaims, existing, namespaces, now));
  }

  /**
   * The pods the kube-scheduler marked Unschedulable, as the provisioning planner sees them, less those a claim holds
   * room for ({@link PromisedPods}): the ones that may still need a new node. A pod Farrier cannot read is left out.
   */
  private List<PodSpecView> pendingWithoutRoom(List<NodeClaim> claims, List<ExistingNodeView> existing, NamespaceSelectors namespaces,
      Instant now) {
    VolumeTopology volumes = new VolumeTopology(reader);
    List<PodSpecView> pending = new ArrayList<>();
    for (Pod pod : reader.listPendingPods()) {
      if (pod.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      try {
        addIfProvisionable(pending, pod, namespaces, volumes);
      } catch (RuntimeException e) {
        log.warn("pending pod left out of the consolidation round pod={}/{}: {}", pod.getMetadata().getNamespace(),
            pod.getMetadata().getName(), e.toString());
      }
    }
    if (!pending.isEmpty()) {
      leaveToScheduler(pending, PromisedPods.held(claims, byUid(pending), rooms(existing), now));
    }
    return pending;
  }

  /** A NodePool that passes {@link NodePoolValidation}, with its EC2NodeClass (null when missing). */
  private record Plannable(NodePool pool, EC2NodeClass nodeClass) {}

  /**
   * The NodePool with its class when it can be planned; empty, logged, when {@link NodePoolValidation} finds a problem
   * (the status loop shows it on the NodePool as ValidationSucceeded False, with an Event), so one bad NodePool is
   * left out and every other one is planned.
   */
  private Optional<Plannable> plannable(NodePool pool) {
    var ref = pool.getSpec() == null || pool.getSpec().template() == null || pool.getSpec().template().spec() == null ? null
        : pool.getSpec().template().spec().nodeClassRef();
    EC2NodeClass nodeClass = ref == null || ref.name() == null ? null : reader.getNodeClass(ref.name()).orElse(null);
    List<String> problems = NodePoolValidation.problems(pool, nodeClass);
    if (!problems.isEmpty()) {
      log.info("nodepool cannot be planned, left out nodepool={} problems=\"{}\"", pool.getMetadata().getName(), String.join("; ", problems));
      return Optional.empty();
    }
    return Optional.of(new Plannable(pool, nodeClass));
  }

  /** The Kubernetes archs the node class has an image for; empty when the class is missing or resolves nothing. */
  private Set<String> nodeClassArchs(EC2NodeClass nodeClass) {
    return nodeClass == null ? Set.of() : NodeClassImages.resolve(cloud, nodeClass).stream()
        .map(i -> i.kubernetesArch()).collect(Collectors.toSet());
  }

  /**
   * The ephemeral storage a node of the class offers ({@link EphemeralStorage}); the default when its volume size is
   * unreadable (its launch then fails with the reason, and this pool's pods are not planned onto more disk than the
   * default).
   */
  private static long ephemeralStorage(EC2NodeClass nodeClass) {
    try {
      return EphemeralStorage.bytes(NodeClassLaunches.amiFamily(nodeClass), nodeClass.getSpec().blockDeviceMappings());
    } catch (IllegalArgumentException e) {
      log.warn("ephemeral storage unreadable, planning with the default nodeclass={} reason=\"{}\"", nodeClass.getMetadata().getName(),
          e.getMessage());
      return EphemeralStorage.DEFAULT_BYTES;
    }
  }

  /** The catalogue's types of the given Kubernetes archs, as the planner sees them (also the status loop's capacity check). */
  public static List<InstanceTypeView> instanceTypes(List<InstanceType> catalog, Set<String> archs, long ephemeralStorageBytes) {
    return catalog.stream().filter(t -> archs.contains(t.kubernetesArch())).map(t -> view(t, ephemeralStorageBytes)).toList();
  }

  /** The planner's view of a catalogue type with Karpenter's default root volume ({@link EphemeralStorage#DEFAULT_BYTES}). */
  public static InstanceTypeView view(InstanceType t) {
    return view(t, EphemeralStorage.DEFAULT_BYTES);
  }

  /**
   * The planner's view of a catalogue type whose nodes offer {@code ephemeralStorageBytes}; public so the scheduling
   * benchmark feeds the planner what it sees here.
   */
  public static InstanceTypeView view(InstanceType t, long ephemeralStorageBytes) {
    var capacity = t.capacity(ephemeralStorageBytes);
    var offerings = t.offerings().stream().map(o -> new OfferingView(o.zone(), o.capacityType(), o.pricePerHour(), o.available())).toList();
    return new InstanceTypeView(t.name(), t.kubernetesArch(), InstanceTypeView.standardLabels(t.name(), t.vcpu(), t.memoryMiB()), capacity, offerings);
  }

  private List<PodSpecView> daemonSetPods() {
    return reader.listDaemonSets().stream()
        .map(ds -> PodViews.of(ds.getSpec().getTemplate().getMetadata() == null
            ? new io.fabric8.kubernetes.api.model.ObjectMeta() : ds.getSpec().getTemplate().getMetadata(),
            ds.getSpec().getTemplate().getSpec(), PodSpecView.OWNER_DAEMON_SET))
        .toList();
  }

  static NodePoolView nodePoolView(NodePool pool, List<NodeClaim> claims) {
    var spec = pool.getSpec();
    var template = spec.template().spec();
    var name = pool.getMetadata().getName();
    Resources usage = claims.stream().filter(c -> name.equals(c.getMetadata().getLabels().get(WellKnown.NODEPOOL_LABEL)))
        .filter(c -> c.getStatus() != null)
        .map(c -> ResourceQuantities.fromQuantities(c.getStatus().capacity())).reduce(Resources.ZERO, Resources::plus);
    var budgets = spec.disruptionOrDefault().budgetsOrDefault().stream()
        .map(b -> new DisruptionBudget(b.nodes(), b.reasons(), b.schedule(), b.duration())).toList();
    return new NodePoolView(name, spec.weight() == null ? 0 : spec.weight(),
        template.requirementsOrEmpty().stream().map(RequirementWithMinValues::toRequirement).toList(),
        spec.template().metadataOrEmpty().labelsOrEmpty(),
        taints(template.taintsOrEmpty()), taints(template.startupTaintsOrEmpty()),
        template.nodeClassRef() == null ? null : template.nodeClassRef().name(),
        limits(spec.limitsOrEmpty()), usage, NodePoolHash.of(pool), budgets, template.expireAfter(), seconds(template.terminationGracePeriod()),
        "true".equals(annotation(pool, WellKnown.APPROVE_REPLACEMENTS_ANNOTATION)), annotation(pool, WellKnown.ROLLOUT_ANNOTATION),
        spec.disruptionOrDefault().consolidationPolicyOrDefault(), spec.disruptionOrDefault().consolidateAfter(),
        ExpiryMode.ofAnnotation(annotation(pool, WellKnown.EXPIRY_ANNOTATION)));
  }

  private static String annotation(NodePool pool, String key) {
    return pool.getMetadata().getAnnotations() == null ? null : pool.getMetadata().getAnnotations().get(key);
  }

  private static NodePoolLimits limits(Map<String, io.fabric8.kubernetes.api.model.Quantity> limits) {
    if (limits.isEmpty()) {
      return NodePoolLimits.NONE;
    }
    var r = ResourceQuantities.fromQuantities(limits);
    return new NodePoolLimits(limits.containsKey("cpu") ? r.milliCpu() : null, limits.containsKey("memory") ? r.memoryBytes() : null,
        limits.containsKey("ephemeral-storage") ? r.ephemeralStorageBytes() : null, limits.containsKey("pods") ? r.pods() : null, r.extended());
  }

  private static List<Taint> taints(List<io.fabric8.kubernetes.api.model.Taint> taints) {
    return taints.stream().map(t -> new Taint(t.getKey(), t.getValue() == null ? "" : t.getValue(), t.getEffect())).toList();
  }

  private static Long seconds(String goDuration) {
    Long millis = GoDurations.toMillis(goDuration);
    return millis == null ? null : millis / 1000;
  }

  /** The Node's conditions with their lastTransitionTime, node repair's input; none without a Node. */
  private static List<NodeConditionView> nodeConditions(Node node) {
    if (node == null || node.getStatus() == null || node.getStatus().getConditions() == null) {
      return List.of();
    }
    return node.getStatus().getConditions().stream().map(c -> new NodeConditionView(c.getType(), c.getStatus(),
        c.getLastTransitionTime() == null ? null : OffsetDateTime.parse(c.getLastTransitionTime()).toInstant().toEpochMilli())).toList();
  }

  private static String nodeName(NodeClaim claim) {
    return claim.getStatus() == null ? null : claim.getStatus().nodeName();
  }

  private NodeClaimView nodeClaimView(NodeClaim claim, Node node, List<Pod> podsOnNode, Set<String> activeReplacements) {
    var meta = claim.getMetadata();
    var status = Optional.ofNullable(claim.getStatus());
    var conditions = status.map(NodeClaimStatus::conditionsOrEmpty).orElse(List.of());
    Map<String, String> nodeLabels = node == null || node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
    Map<String, String> nodeAnnotations = node == null || node.getMetadata().getAnnotations() == null ? Map.of() : node.getMetadata().getAnnotations();
    Map<String, String> claimAnnotations = meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
    boolean tainted = node != null && node.getSpec().getTaints() != null
        && node.getSpec().getTaints().stream().anyMatch(t -> WellKnown.DISRUPTED_TAINT_KEY.equals(t.getKey()));
    boolean replacementActive = activeReplacements.contains(meta.getName()) || (tainted && replacements.active(meta.getName()));
    if (tainted && !replacementActive) {
      // Left by a replacement that is gone: plan the node again (a new replacement converges from where it is); it still
      // counts against its NodePool's budget.
      log.info("disrupted taint without a running replacement, planning again nodeclaim={} node={}", meta.getName(),
          node.getMetadata().getName());
    }
    var pods = node == null ? PodsOnNode.NONE : PodsOnNode.of(podsOnNode.stream().map(PodViews::of).toList());
    Map<String, String> requirementLabels = new LinkedHashMap<>();
    claim.getSpec().requirementsOrEmpty().stream().filter(r -> "In".equals(r.operator()) && r.values() != null && r.values().size() == 1)
        .forEach(r -> requirementLabels.put(r.key(), r.values().getFirst()));
    Long drifted = Conditions.find(conditions, NodeClaimStatus.DRIFTED).filter(c -> c.isTrue())
        .map(c -> OffsetDateTime.parse(c.lastTransitionTime()).toInstant().toEpochMilli()).orElse(null);
    return new NodeClaimView(
        meta.getName(),
        meta.getLabels().get(WellKnown.NODEPOOL_LABEL),
        claim.getSpec().nodeClassRef() == null ? null : claim.getSpec().nodeClassRef().name(),
        nodeName(claim),
        ProviderIds.instanceId(status.map(NodeClaimStatus::providerID).orElse(null)),
        status.map(NodeClaimStatus::imageID).orElse(null),
        nodeLabels.getOrDefault(WellKnown.ARCH_LABEL, requirementLabels.get(WellKnown.ARCH_LABEL)),
        claimAnnotations.get(WellKnown.NODEPOOL_HASH_ANNOTATION),
        nodeLabels.get(WellKnown.CAPACITY_TYPE_LABEL),
        nodeLabels.get(WellKnown.INSTANCE_TYPE_LABEL),
        nodeLabels.get(WellKnown.ZONE_LABEL),
        Conditions.isTrue(conditions, NodeClaimStatus.REGISTERED),
        Conditions.isTrue(conditions, NodeClaimStatus.INITIALIZED),
        meta.getDeletionTimestamp() != null || (node != null && node.getMetadata().getDeletionTimestamp() != null),
        tainted,
        nodeAnnotations.containsKey(WellKnown.FARRIER_ABORTED_ANNOTATION) || claimAnnotations.containsKey(WellKnown.FARRIER_ABORTED_ANNOTATION),
        "true".equals(claimAnnotations.get(WellKnown.DO_NOT_DISRUPT_ANNOTATION)) || "true".equals(nodeAnnotations.get(WellKnown.DO_NOT_DISRUPT_ANNOTATION)),
        OffsetDateTime.parse(meta.getCreationTimestamp()).toInstant().toEpochMilli(),
        drifted,
        claim.getSpec().expireAfter(),
        seconds(claim.getSpec().terminationGracePeriod()),
        pods,
        replacementActive,
        nodeAnnotations.containsKey(WellKnown.REBALANCE_RECOMMENDED_ANNOTATION));
  }
}

package dev.farrier.activities.provisioning;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.Preemption;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.activities.nodeclass.NodeClassLaunches;
import dev.farrier.activities.views.NamespaceSelectors;
import dev.farrier.model.PodRef;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.planner.ClaimNamer;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodePoolView;
import dev.farrier.planner.PodSpecView;
import dev.farrier.planner.ProvisioningPlanner;
import dev.farrier.planner.ProvisioningSnapshot;
import dev.farrier.workflows.activities.PlanProvisioningRequest;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code planProvisioning}: reads a batch's pending pods and the cluster into the provisioning planner's snapshot and
 * lets it decide. Its one effect, after the plan is made, is a Warning Event on each pod that fits nowhere
 * ({@link UnschedulableEvents}).
 */
public final class ProvisioningPlanning {
  private static final Logger log = LoggerFactory.getLogger(ProvisioningPlanning.class);

  private final ClusterReader reader;
  private final NodeClaimStore claims;
  private final PlanningInputs inputs;
  private final UnschedulableEvents unschedulableEvents;
  private final Clock clock;
  private final ProvisioningPlanner provisioning = new ProvisioningPlanner();
  private final StaticProvisioning staticPools;

  public ProvisioningPlanning(ClusterReader reader, NodeClaimStore claims, PlanningInputs inputs, UnschedulableEvents unschedulableEvents,
      Clock clock) {
    this.reader = reader;
    this.claims = claims;
    this.inputs = inputs;
    this.unschedulableEvents = unschedulableEvents;
    this.clock = clock;
    this.staticPools = new StaticProvisioning(reader, claims, inputs);
  }

  /**
   * How the batch's pods are read: one GET for a single pod, else from the list of every unbound pod (a batch of 500
   * pods took 2.7 s of GETs; the list is read once whatever the batch holds).
   */
  private Function<PodRef, Optional<Pod>> podReader(List<PodRef> pods, List<Pod> unboundPods) {
    if (pods.size() <= 1) {
      return ref -> reader.getPod(ref.namespace(), ref.name());
    }
    Map<String, Pod> unbound = new HashMap<>();
    for (Pod pod : unboundPods) {
      unbound.put(pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName(), pod);
    }
    return ref -> Optional.ofNullable(unbound.get(ref.namespace() + "/" + ref.name()));
  }

  /**
   * Reads pending pods (with their volume zones), existing nodes and in-flight claims with their pods, DaemonSets,
   * NodePools (usage counting claims still launching), instance types and kubelet settings, and lets the planner
   * decide (a request for the static NodePools' scale-up goes to {@link StaticProvisioning}). The one write is a Warning Event on each pod that fits nowhere, at most once per
   * {@link UnschedulableEvents#WINDOW} for the same reason; a retry writes nothing new.
   */
  public ProvisioningPlan plan(PlanProvisioningRequest request) {
    if (request.staticPools()) {
      return staticPools.plan(request.batchId());
    }
    NamespaceSelectors namespaces = NamespaceSelectors.lazy(reader::listNamespaces);
    VolumeTopology volumes = new VolumeTopology(reader);
    CsiVolumes csi = CsiVolumes.of(reader);
    List<PodSpecView> pending = new ArrayList<>();
    // Read once, before the bound pods: a pod bound in between is in both lists, never in neither (PlannedPods' promise).
    List<Pod> unboundPods = reader.listUnboundPods();
    Function<PodRef, Optional<Pod>> read = podReader(request.pods(), unboundPods);
    for (var ref : request.pods()) {
      read.apply(ref)
          .filter(p -> Objects.equals(p.getMetadata().getUid(), ref.uid()))
          .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
          .filter(p -> p.getSpec().getNodeName() == null || p.getSpec().getNodeName().isEmpty())
          .filter(p -> !Preemption.nominated(p))
          .ifPresent(p -> {
            try {
              PendingPods.addIfProvisionable(pending, p, namespaces, volumes, csi);
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
    int held = PendingPods.leaveToScheduler(pending, PromisedPods.held(claims, PendingPods.byUid(pending), node -> NodeRoom.none(),
        clock.instant()));
    if (pending.isEmpty()) {
      log.info("pods left to the scheduler, a nodeclaim holds room for them batch={} pods={}", request.batchId(), held);
      return new ProvisioningPlan(List.of(), List.of());
    }
    var pools = reader.listNodePools();
    var catalog = inputs.catalog();
    var overlays = inputs.overlays(catalog);
    Map<String, List<InstanceTypeView>> types = new HashMap<>();
    Map<String, KubeletSettings> kubelets = new HashMap<>();
    List<NodePoolView> views = new ArrayList<>();
    for (var pool : pools) {
      try {
        inputs.launchable(pool).ifPresent(p -> {
          var view = NodePoolViews.of(p.pool(), claims);
          var poolTypes = overlays.apply(view, inputs.instanceTypes(catalog, p.nodeClass()));
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
    int boundSince = PendingPods.leaveToScheduler(pending, PendingPods.boundAmong(boundPods, PendingPods.byUid(pending)));
    var existing = ProvisioningSnapshots.existingNodes(reader.listNodes(), boundPods, unboundPods, claims, types, kubelets, namespaces, csi,
        clock.instant());
    // Then those of Initialized claims whose node can still take them (NodeRoom: room, taints, hostname anti-affinity).
    held += PendingPods.leaveToScheduler(pending, PromisedPods.held(claims, PendingPods.byUid(pending), PendingPods.rooms(existing),
        clock.instant()));
    if (held > 0) {
      log.info("pods left to the scheduler, a nodeclaim holds room for them batch={} pods={}", request.batchId(), held);
    }
    if (boundSince > 0) {
      log.info("pods bound while the batch was planned batch={} pods={}", request.batchId(), boundSince);
    }
    if (pending.isEmpty()) {
      return new ProvisioningPlan(List.of(), List.of());
    }
    var snapshot = new ProvisioningSnapshot(pending, views, types, inputs.daemonSetPods(), existing, kubelets);
    var plan = provisioning.plan(snapshot, request.batchId(), ClaimNamer.standard());
    int onExisting = plan.onExisting().stream().mapToInt(e -> e.pods().size()).sum();
    log.info("provisioning planned batch={} pods={} onExisting={} claims={} unschedulable={}", request.batchId(), pending.size(),
        onExisting, plan.claims().size(), plan.unschedulable().size());
    unschedulableEvents.record(plan.unschedulable());
    return plan;
  }
}

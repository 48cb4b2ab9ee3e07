package dev.farrier.activities.disruption;

import static dev.farrier.activities.disruption.NodeClaimViews.nodeName;

import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.nodeclass.DriftFacts;
import dev.farrier.activities.nodeclass.NodeClassImages;
import dev.farrier.activities.nodeclass.NodeClassLaunches;
import dev.farrier.activities.provisioning.CsiVolumes;
import dev.farrier.activities.provisioning.NodePoolViews;
import dev.farrier.activities.provisioning.PendingPods;
import dev.farrier.activities.provisioning.PlanningInputs;
import dev.farrier.activities.provisioning.ProvisioningSnapshots;
import dev.farrier.activities.views.InstanceTypeViews;
import dev.farrier.activities.views.NamespaceSelectors;
import dev.farrier.activities.views.PodViews;
import dev.farrier.model.GoDurations;
import dev.farrier.planner.ConsolidationView;
import dev.farrier.planner.DisruptionSnapshot;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodeClaimView;
import dev.farrier.planner.NodeClassView;
import dev.farrier.planner.NodePoolView;
import dev.farrier.planner.ResolvedImages;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the cluster into the disruption planner's snapshot: Farrier's NodeClaims with their Nodes, pods, conditions,
 * pod event times and drift facts, the NodePools that can be planned, the node classes' resolved images, and, when a
 * NodePool consolidates underutilized nodes, the cluster as the provisioning scheduler sees it. Reads only.
 */
public final class DisruptionSnapshots {
  private static final Logger log = LoggerFactory.getLogger(DisruptionSnapshots.class);

  private final ClusterReader reader;
  private final ReplacementTracker replacements;
  private final PlanningInputs inputs;
  private final Clock clock;
  private final boolean spotToSpot;

  /**
   * @param spotToSpot Karpenter's SpotToSpotConsolidation gate: an underutilized spot node may be replaced by a cheaper
   *                   spot node, not only deleted
   */
  public DisruptionSnapshots(ClusterReader reader, ReplacementTracker replacements, PlanningInputs inputs, Clock clock,
      boolean spotToSpot) {
    this.reader = reader;
    this.replacements = replacements;
    this.inputs = inputs;
    this.clock = clock;
    this.spotToSpot = spotToSpot;
  }

  /** The disruption snapshot of Farrier's claims, and the NodePools left out because they cannot be planned. */
  public record Disruptable(DisruptionSnapshot snapshot, Set<String> unplannable) {}

  /** {@code all} every NodeClaim as listed (all are capacity), {@code claims} Farrier's among them (the ones planned). */
  public Disruptable of(List<NodeClaim> all, List<NodeClaim> claims, Map<String, String> frozen, boolean nodeRepair) {
    return of(all, claims, frozen, nodeRepair, null);
  }

  /** As above; {@code rechecking} the claim whose consolidation is checked again (its group is not held for it), or null. */
  public Disruptable of(List<NodeClaim> all, List<NodeClaim> claims, Map<String, String> frozen, boolean nodeRepair,
      String rechecking) {
    List<NodePoolView> pools = new ArrayList<>();
    Map<String, EC2NodeClass> classes = new HashMap<>();
    Set<String> unplannable = new TreeSet<>();
    for (NodePool pool : reader.listNodePools()) {
      try {
        var plannable = inputs.plannable(pool);
        if (plannable.isPresent()) {
          pools.add(NodePoolViews.of(pool, claims));
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
    // Read before the bound pods (a pod bound in between is in both lists, never in neither: PlannedPods' promise), and
    // only for the consolidation view, the one reader of it.
    boolean consolidates = pools.stream().anyMatch(DisruptionSnapshots::consolidatesUnderutilized);
    List<Pod> unbound = consolidates ? reader.listUnboundPods() : List.of();
    List<Pod> boundPods = reader.listBoundPods();
    Map<String, List<Pod>> podsByNode = boundPods.stream().filter(p -> !PodViews.terminal(p))
        .collect(Collectors.groupingBy(p -> p.getSpec().getNodeName()));
    Set<String> active = replacements.active();
    List<NodeClaimView> plain = claims.stream()
        .map(c -> NodeClaimViews.of(c, nodes.get(nodeName(c)), podsByNode.getOrDefault(nodeName(c), List.of()), active, replacements)
            .withNodeConditions(NodeClaimViews.nodeConditions(nodes.get(nodeName(c)))))
        .toList();
    // The pods on nodes being disrupted: a claim launched for them (their replacement) holds room for them until they move.
    Map<String, String> beingDrained = new HashMap<>();
    plain.stream().filter(v -> v.beingDisrupted() && v.nodeName() != null)
        .forEach(v -> podsByNode.getOrDefault(v.nodeName(), List.of()).forEach(p -> beingDrained.put(p.getMetadata().getUid(), v.nodeName())));
    Map<String, NodeClaim> byName = claims.stream().collect(Collectors.toMap(c -> c.getMetadata().getName(), c -> c, (a, b) -> a));
    boolean podsUnbound = reader.listUnboundPods().stream()
        .anyMatch(p -> !PodViews.terminal(p) && p.getMetadata().getDeletionTimestamp() == null);
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
          PodEventTimes.nominated(c, now, beingDrained, podsUnbound))
          .withDriftFacts(DriftFacts.labels(c, nodes.get(v.nodeName())), DriftFacts.launchedWith(c),
              nodeClass == null ? null : nodeClasses.get(nodeClass));
    }).toList();
    var consolidation = consolidates
        ? consolidationView(pools, classes, all, nodeList, boundPods, unbound, podsByNode,
            PromisedElsewhere.of(views, byName, podsByNode, rechecking))
        : null;
    return new Disruptable(new DisruptionSnapshot(clock.millis(), pools, views, images, frozen, consolidation, nodeRepair), unplannable);
  }

  private static boolean consolidatesUnderutilized(NodePoolView pool) {
    return pool.consolidatesUnderutilized() && GoDurations.toMillis(pool.consolidateAfter()) != null;
  }

  /**
   * The cluster as the provisioning scheduler sees it, for consolidating underutilized nodes: every NodeClaim (Farrier's
   * or not: all are capacity), the instance types of each NodePool (archs from its class's resolved images, so the round
   * makes no image lookup), DaemonSets, PodDisruptionBudgets and disruption costs.
   */
  private ConsolidationView consolidationView(List<NodePoolView> pools, Map<String, EC2NodeClass> classes, List<NodeClaim> allClaims,
      List<Node> nodeList, List<Pod> boundPods, List<Pod> unbound, Map<String, List<Pod>> podsByNode,
      PromisedElsewhere.Promises promises) {
    var catalog = inputs.catalog();
    var overlays = inputs.overlays(catalog);
    Map<String, List<InstanceTypeView>> types = new HashMap<>();
    Map<String, KubeletSettings> kubelets = new HashMap<>();
    for (NodePoolView pool : pools) {
      EC2NodeClass nodeClass = classes.get(pool.name());
      if (nodeClass != null) {
        var archs = NodeClassImages.fromStatus(nodeClass).keySet();
        types.put(pool.name(), overlays.apply(pool, InstanceTypeViews.instanceTypes(catalog,
            t -> archs.contains(t.kubernetesArch()) && NodeClassLaunches.admits(nodeClass, t), PlanningInputs.ephemeralStorage(nodeClass),
            NodeClassLaunches.amiFamily(nodeClass), List.of())));
        kubelets.put(pool.name(), NodeClassLaunches.kubelet(nodeClass));
      }
    }
    var now = clock.instant();
    NamespaceSelectors namespaces = NamespaceSelectors.lazy(reader::listNamespaces);
    CsiVolumes csi = CsiVolumes.of(reader);
    var existing = ProvisioningSnapshots.existingNodes(nodeList, boundPods, unbound, allClaims, types, kubelets, namespaces, csi, now);
    Map<String, NodeClaim> claimsByNode = new HashMap<>();
    allClaims.stream().filter(c -> nodeName(c) != null).forEach(c -> claimsByNode.put(nodeName(c), c));
    return ConsolidationViews.of(existing, types, inputs.daemonSetPods(), kubelets, podsByNode, reader.listPodDisruptionBudgets(),
        claimsByNode, now, spotToSpot, promises, PendingPods.withoutRoom(reader, allClaims, existing, namespaces, csi, now));
  }
}

package dev.farrier.planner;

import java.util.List;
import java.util.Map;

/**
 * What consolidation of underutilized nodes reads beyond the disruption snapshot: the cluster as the provisioning
 * scheduler sees it (every node with its pods, the instance types and kubelet settings of each NodePool, the
 * DaemonSets), so the same scheduler simulates where a candidate's pods would go. Gathered by the planning activity
 * only when a NodePool consolidates underutilized nodes.
 *
 * @param nodes          every Node and in-flight NodeClaim, as {@link ProvisioningSnapshot#existingNodes()}
 * @param instanceTypes  per NodePool, the instance types it may launch (prices included)
 * @param daemonSetPods  one pod template per DaemonSet
 * @param kubelets       per NodePool, its EC2NodeClass's kubelet settings
 * @param pdbBlocked     per node name, why a PodDisruptionBudget allows no eviction of one of its pods now (absent
 *                       when none does)
 * @param disruptionCost per node name, Karpenter's disruption cost: the sum of its pods' eviction costs (1, plus the
 *                       pod deletion cost and priority, scaled) times the share of its lifetime left before expiry
 * @param spotToSpot     spot nodes may be replaced by cheaper spot nodes (Karpenter's feature gate
 *                       SpotToSpotConsolidation, off by default: then a spot node is only deleted)
 * @param promisedElsewhere per node name, why its pods already have a home being made ready: another claim that holds
 *                       room for them was launched for them (the replacement of a multi-node consolidation they belong
 *                       to), so the node is no candidate until that claim stops holding room (absent when none does)
 * @param pendingPods    the pods the kube-scheduler marked Unschedulable that no claim holds room for
 *                       ({@code PromisedPods}): while some of them need new nodes, no underutilized node is consolidated
 * @param homes          per node name, for the rest of a multi-node consolidation whose lead is replaced, the node of the
 *                       initialized claim launched for its pods: each round first deletes one of them whose pods fit on
 *                       the other nodes
 * @param moveCost       per node name, Karpenter's disruption cost of the node for {@code Balanced} scoring: 1, plus
 *                       {@code max(0, eviction cost)} of each pod a drain would move (absent: 1 plus its pods to move,
 *                       each at the default cost, see {@link BalancedScoring#moveCost})
 */
public record ConsolidationView(
    List<ExistingNodeView> nodes,
    Map<String, List<InstanceTypeView>> instanceTypes,
    List<PodSpecView> daemonSetPods,
    Map<String, KubeletSettings> kubelets,
    Map<String, String> pdbBlocked,
    Map<String, Double> disruptionCost,
    boolean spotToSpot,
    Map<String, String> promisedElsewhere,
    List<PodSpecView> pendingPods,
    Map<String, String> homes,
    Map<String, Double> moveCost) {
  /** With spot-to-spot consolidation off, as Karpenter's default, no node's pods promised elsewhere and no pod pending. */
  public ConsolidationView(List<ExistingNodeView> nodes, Map<String, List<InstanceTypeView>> instanceTypes, List<PodSpecView> daemonSetPods,
      Map<String, KubeletSettings> kubelets, Map<String, String> pdbBlocked, Map<String, Double> disruptionCost) {
    this(nodes, instanceTypes, daemonSetPods, kubelets, pdbBlocked, disruptionCost, false, Map.of(), List.of(), Map.of(), Map.of());
  }

  public ConsolidationView(List<ExistingNodeView> nodes, Map<String, List<InstanceTypeView>> instanceTypes, List<PodSpecView> daemonSetPods,
      Map<String, KubeletSettings> kubelets, Map<String, String> pdbBlocked, Map<String, Double> disruptionCost, boolean spotToSpot) {
    this(nodes, instanceTypes, daemonSetPods, kubelets, pdbBlocked, disruptionCost, spotToSpot, Map.of(), List.of(), Map.of(), Map.of());
  }

  /** With no pod pending. */
  public ConsolidationView(List<ExistingNodeView> nodes, Map<String, List<InstanceTypeView>> instanceTypes, List<PodSpecView> daemonSetPods,
      Map<String, KubeletSettings> kubelets, Map<String, String> pdbBlocked, Map<String, Double> disruptionCost, boolean spotToSpot,
      Map<String, String> promisedElsewhere) {
    this(nodes, instanceTypes, daemonSetPods, kubelets, pdbBlocked, disruptionCost, spotToSpot, promisedElsewhere, List.of(), Map.of(),
        Map.of());
  }

  /** Without the disruption costs for {@code Balanced} scoring read (each pod then counts 1). */
  public ConsolidationView(List<ExistingNodeView> nodes, Map<String, List<InstanceTypeView>> instanceTypes, List<PodSpecView> daemonSetPods,
      Map<String, KubeletSettings> kubelets, Map<String, String> pdbBlocked, Map<String, Double> disruptionCost, boolean spotToSpot,
      Map<String, String> promisedElsewhere, List<PodSpecView> pendingPods, Map<String, String> homes) {
    this(nodes, instanceTypes, daemonSetPods, kubelets, pdbBlocked, disruptionCost, spotToSpot, promisedElsewhere, pendingPods, homes,
        Map.of());
  }

  public ConsolidationView {
    nodes = List.copyOf(nodes);
    instanceTypes = Map.copyOf(instanceTypes);
    daemonSetPods = daemonSetPods == null ? List.of() : List.copyOf(daemonSetPods);
    kubelets = kubelets == null ? Map.of() : Map.copyOf(kubelets);
    pdbBlocked = pdbBlocked == null ? Map.of() : Map.copyOf(pdbBlocked);
    disruptionCost = disruptionCost == null ? Map.of() : Map.copyOf(disruptionCost);
    promisedElsewhere = promisedElsewhere == null ? Map.of() : Map.copyOf(promisedElsewhere);
    pendingPods = pendingPods == null ? List.of() : List.copyOf(pendingPods);
    homes = homes == null ? Map.of() : Map.copyOf(homes);
    moveCost = moveCost == null ? Map.of() : Map.copyOf(moveCost);
  }

  /** The same view with these disruption costs for {@code Balanced} scoring. */
  public ConsolidationView withMoveCost(Map<String, Double> cost) {
    return new ConsolidationView(nodes, instanceTypes, daemonSetPods, kubelets, pdbBlocked, disruptionCost, spotToSpot,
        promisedElsewhere, pendingPods, homes, cost);
  }
}

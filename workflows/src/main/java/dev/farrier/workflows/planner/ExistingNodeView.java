package dev.farrier.workflows.planner;

import dev.farrier.workflows.model.Resources;
import dev.farrier.workflows.model.Taint;
import java.util.List;
import java.util.Map;

/**
 * A node that exists, or a NodeClaim still being launched, as the provisioning planner sees it: capacity pending pods
 * may use before any new claim is opened, and pods that topology spread and pod (anti-)affinity count.
 *
 * @param name          the Node's name; for an in-flight claim without a Node, the NodeClaim's name (which then
 *                      stands in for {@code kubernetes.io/hostname})
 * @param nodePool      label {@code karpenter.sh/nodepool}, null for a node no NodePool made (it still takes pods)
 * @param labels        the Node's labels; for an in-flight claim, its template labels plus each requirement that pins
 *                      one value (zone, instance type, capacity type once launched)
 * @param taints        the Node's (or the claim's) taints; startup taints and the {@code karpenter.sh/unregistered}
 *                      and {@code node.kubernetes.io/not-ready} taints are ignored while {@code initialized} is false
 * @param allocatable   {@code status.allocatable} of the Node or NodeClaim; for a claim not launched yet, the
 *                      allocatable of the smallest instance type it lists
 * @param pods          the non-terminal pods bound to it (their requests use capacity; their labels count for
 *                      topology spread and pod affinity)
 * @param reserved      requests promised to pods not bound yet: for an in-flight claim, {@code spec.resources.requests}
 *                      less what its bound pods use (never below zero); zero for a ready node
 * @param initialized   the claim is Initialized (or the node has no claim): false means in flight
 * @param acceptsPods   false when cordoned, being deleted or disrupted: its pods still count for topology, but
 *                      nothing new lands on it
 */
public record ExistingNodeView(
    String name,
    String nodePool,
    Map<String, String> labels,
    List<Taint> taints,
    Resources allocatable,
    List<PodSpecView> pods,
    Resources reserved,
    boolean initialized,
    boolean acceptsPods) {
  public ExistingNodeView {
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    taints = taints == null ? List.of() : List.copyOf(taints);
    allocatable = allocatable == null ? Resources.ZERO : allocatable;
    pods = pods == null ? List.of() : List.copyOf(pods);
    reserved = reserved == null ? Resources.ZERO : reserved;
  }
}

package dev.farrier.activities.views;

import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.aws.EphemeralStorage;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.NodeOverlay;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.RequirementWithMinValues;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.NodeOverlayView;
import dev.farrier.planner.NodeOverlays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The cluster's NodeOverlays as the planner applies them. Which overlays stand (and which conflict) is decided over
 * every NodePool against the whole catalogue, so the planning rounds and the status loop, which read the same
 * NodePools, EC2NodeClasses, overlays and catalogue, agree on it.
 */
public final class NodeOverlayViews {
  private NodeOverlayViews() {}

  /** {@code spec} of the overlay as the planner reads it. */
  public static NodeOverlayView of(NodeOverlay overlay) {
    var spec = overlay.getSpec();
    String change = spec.price() != null ? spec.price() : spec.priceAdjustment();
    return new NodeOverlayView(overlay.getMetadata().getName(), spec.weight() == null ? 0 : spec.weight(),
        spec.requirements() == null ? List.of() : spec.requirements().stream().map(RequirementWithMinValues::toRequirement).toList(),
        change, ResourceQuantities.fromQuantities(spec.capacity()).extended());
  }

  /**
   * The overlays that stand and those that conflict, judged against each NodePool offered every catalogue type as a node
   * of its EC2NodeClass's AMI family would be labelled ({@code classes} by name; a Windows family's amd64 types as
   * Windows nodes, as {@link InstanceTypeViews#instanceTypes} offers them).
   */
  public static NodeOverlays resolve(List<NodeOverlay> overlays, List<NodePool> pools, Map<String, EC2NodeClass> classes,
      List<InstanceType> catalog) {
    if (overlays.isEmpty()) {
      return NodeOverlays.NONE;
    }
    Map<String, List<InstanceTypeView>> byFamily = new HashMap<>();
    Map<NodeOverlays.Pool, List<InstanceTypeView>> byPool = new LinkedHashMap<>();
    for (NodePool p : pools) {
      var spec = p.getSpec();
      var ref = spec == null || spec.template() == null || spec.template().spec() == null ? null : spec.template().spec().nodeClassRef();
      EC2NodeClass nodeClass = ref == null ? null : classes.get(ref.name());
      String family = nodeClass == null || nodeClass.getSpec() == null ? "" : Objects.toString(nodeClass.getSpec().resolvedAmiFamily(), "");
      byPool.put(pool(p), byFamily.computeIfAbsent(family,
          f -> InstanceTypeViews.instanceTypes(catalog, t -> true, EphemeralStorage.DEFAULT, f.isEmpty() ? null : f, List.of())));
    }
    return NodeOverlays.resolve(overlays.stream().filter(o -> o.getSpec() != null).map(NodeOverlayViews::of).toList(), byPool);
  }

  /** The NodePool as an overlay's requirements see it: its name and template labels. */
  public static NodeOverlays.Pool pool(NodePool pool) {
    var spec = pool.getSpec();
    return new NodeOverlays.Pool(pool.getMetadata().getName(),
        spec == null || spec.template() == null ? Map.of() : spec.template().metadataOrEmpty().labelsOrEmpty());
  }
}

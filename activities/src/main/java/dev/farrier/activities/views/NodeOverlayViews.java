package dev.farrier.activities.views;

import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.crd.NodeOverlay;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.RequirementWithMinValues;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.NodeOverlayView;
import dev.farrier.planner.NodeOverlays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cluster's NodeOverlays as the planner applies them. Which overlays stand (and which conflict) is decided over
 * every NodePool against the whole catalogue, so the planning rounds and the status loop, which read the same
 * NodePools, overlays and catalogue, agree on it.
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

  /** The overlays that stand and those that conflict, judged against each NodePool offered every catalogue type. */
  public static NodeOverlays resolve(List<NodeOverlay> overlays, List<NodePool> pools, List<InstanceType> catalog) {
    if (overlays.isEmpty()) {
      return NodeOverlays.NONE;
    }
    List<InstanceTypeView> types = catalog.stream().map(InstanceTypeViews::view).toList();
    Map<NodeOverlays.Pool, List<InstanceTypeView>> byPool = new LinkedHashMap<>();
    pools.forEach(p -> byPool.put(pool(p), types));
    return NodeOverlays.resolve(overlays.stream().filter(o -> o.getSpec() != null).map(NodeOverlayViews::of).toList(), byPool);
  }

  /** The NodePool as an overlay's requirements see it: its name and template labels. */
  public static NodeOverlays.Pool pool(NodePool pool) {
    var spec = pool.getSpec();
    return new NodeOverlays.Pool(pool.getMetadata().getName(),
        spec == null || spec.template() == null ? Map.of() : spec.template().metadataOrEmpty().labelsOrEmpty());
  }
}

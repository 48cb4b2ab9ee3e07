package dev.farrier.activities.cloud;

import dev.farrier.workflows.model.Taint;
import java.util.List;
import java.util.Map;

/**
 * One instance for one NodeClaim.
 *
 * @param instanceTypes ranked, cheapest first; the provider picks the first with an available offering in
 *                      {@code zones} x {@code capacityTypes} (spot preferred over on-demand when both are allowed)
 * @param images        resolved images; the provider takes the one matching the chosen type's architecture
 * @param nodeLabels    labels and taints the node registers with (what user data passes to the kubelet)
 * @param tags          tags for the instance (ownership tags included by the caller)
 */
public record LaunchRequest(
    String cluster,
    String nodeClaim,
    String nodePool,
    String nodeClass,
    List<String> instanceTypes,
    List<String> capacityTypes,
    List<String> zones,
    List<Image> images,
    Map<String, String> tags,
    Map<String, String> nodeLabels,
    List<Taint> nodeTaints) {
  public LaunchRequest {
    instanceTypes = List.copyOf(instanceTypes);
    capacityTypes = List.copyOf(capacityTypes);
    zones = List.copyOf(zones);
    images = List.copyOf(images);
    tags = Map.copyOf(tags);
    nodeLabels = Map.copyOf(nodeLabels);
    nodeTaints = List.copyOf(nodeTaints);
  }
}

package dev.farrier.planner;

import dev.farrier.model.Requirement;
import java.util.List;
import java.util.Map;

/**
 * A NodeOverlay as the planners see it, read by an activity from the {@code karpenter.sh/v1alpha1} object.
 *
 * @param weight          {@code spec.weight}, 0 when unset; the higher weight wins
 * @param requirements    {@code spec.requirements}: which instance types and offerings it applies to
 * @param priceChange     {@code spec.price} (an absolute price, {@code "0.05"}) or {@code spec.priceAdjustment}
 *                        ({@code "+0.1"}, {@code "-0.05"}, {@code "+10%"}, {@code "-15%"}); null when it sets neither
 * @param capacity        {@code spec.capacity}: extended resources in base units, by name; empty when none
 */
public record NodeOverlayView(String name, int weight, List<Requirement> requirements, String priceChange, Map<String, Long> capacity) {
  public NodeOverlayView {
    requirements = requirements == null ? List.of() : List.copyOf(requirements);
    capacity = capacity == null ? Map.of() : Map.copyOf(capacity);
  }

  boolean setsPrice() {
    return priceChange != null && !priceChange.isEmpty();
  }
}

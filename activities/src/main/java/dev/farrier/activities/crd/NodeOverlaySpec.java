package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;

/**
 * {@code spec} of a NodeOverlay.
 *
 * @param requirements    which instance types and offerings it applies to (their labels, the NodePool's name and
 *                        template labels, zone and capacity type)
 * @param price           the price per hour of a matching offering ({@code "0.05"}); never with {@code priceAdjustment}
 * @param priceAdjustment a change of a matching offering's price: {@code "+0.1"}, {@code "-0.05"}, {@code "+10%"},
 *                        {@code "-15%"}
 * @param capacity        extended resources a matching instance type's nodes have (never cpu, memory, pods,
 *                        ephemeral-storage)
 * @param weight          1 to 10000; unset reads as 0. The higher weight wins
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record NodeOverlaySpec(List<RequirementWithMinValues> requirements, String price, String priceAdjustment,
    Map<String, Quantity> capacity, Integer weight) {}

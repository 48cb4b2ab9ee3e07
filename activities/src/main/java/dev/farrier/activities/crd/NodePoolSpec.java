package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/**
 * {@code spec} of a NodePool; {@code limits} bounds the sum of its nodes' capacity (cpu, memory, nodes, ...);
 * {@code replicas}, when set, makes it a static NodePool of that many nodes (null: it follows its pods).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record NodePoolSpec(NodeClaimTemplate template, Disruption disruption, Map<String, Quantity> limits, Integer weight,
    Long replicas) {
  /** A dynamic NodePool (no {@code replicas}). */
  public NodePoolSpec(NodeClaimTemplate template, Disruption disruption, Map<String, Quantity> limits, Integer weight) {
    this(template, disruption, limits, weight, null);
  }

  public Map<String, Quantity> limitsOrEmpty() {
    return limits == null ? Map.of() : limits;
  }

  public Disruption disruptionOrDefault() {
    return disruption == null ? new Disruption(null, "0s", null) : disruption;
  }
}

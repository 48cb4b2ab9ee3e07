package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;

/**
 * {@code status} of a NodePool: the sum of its nodes' capacity, their count, its conditions, and the generation of
 * its EC2NodeClass that the conditions were computed against (null while the class is missing).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record NodePoolStatus(Map<String, Quantity> resources, Long nodes, List<Condition> conditions, Long nodeClassObservedGeneration) {
  /** A status without the node class's generation (a patch that leaves it as it is). */
  public NodePoolStatus(Map<String, Quantity> resources, Long nodes, List<Condition> conditions) {
    this(resources, nodes, conditions, null);
  }
}

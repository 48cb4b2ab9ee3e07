package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** {@code status} of a NodeOverlay: {@code ValidationSucceeded} and {@code Ready}, as Karpenter writes them. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record NodeOverlayStatus(List<Condition> conditions) {
  public static final String VALIDATION_SUCCEEDED = "ValidationSucceeded";
  public static final String READY = "Ready";
}

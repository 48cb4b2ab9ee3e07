package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;

/**
 * {@code status} of a NodeClaim. As a patch ({@code Cluster.patchNodeClaimStatus}) a null field means "leave as
 * is" and {@code conditions} are merged by type.
 *
 * @param providerID       {@code aws:///<zone>/<instance-id>} once launched
 * @param lastPodEventTime RFC 3339
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record NodeClaimStatus(
    String providerID,
    String imageID,
    String nodeName,
    Map<String, Quantity> capacity,
    Map<String, Quantity> allocatable,
    List<Condition> conditions,
    String lastPodEventTime) {
  public static final String LAUNCHED = "Launched";
  public static final String REGISTERED = "Registered";
  public static final String INITIALIZED = "Initialized";
  public static final String READY = "Ready";
  public static final String DRIFTED = "Drifted";
  public static final String EXPIRED = "Expired";
  public static final String CONSOLIDATABLE = "Consolidatable";
  public static final String DISRUPTION_REASON = "DisruptionReason";
  public static final String TERMINATING = "Terminating";

  /** A status patch that only sets conditions. */
  public static NodeClaimStatus ofConditions(Condition... conditions) {
    return new NodeClaimStatus(null, null, null, null, null, List.of(conditions), null);
  }

  public List<Condition> conditionsOrEmpty() {
    return conditions == null ? List.of() : conditions;
  }
}

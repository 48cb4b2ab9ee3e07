package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * A status condition, as all three resources (and Karpenter's operatorpkg) write it.
 *
 * @param status             {@code True}, {@code False} or {@code Unknown}
 * @param lastTransitionTime RFC 3339, when {@code status} last changed (not when the condition was last written)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Condition(
    String type, String status, Long observedGeneration, String lastTransitionTime, String reason, String message) {
  public static final String TRUE = "True";
  public static final String FALSE = "False";
  public static final String UNKNOWN = "Unknown";

  /** A condition that transitions now; the API server keeps second precision, so we do too. */
  public static Condition of(String type, String status, String reason, String message, Instant now) {
    return new Condition(type, status, null, now.truncatedTo(ChronoUnit.SECONDS).toString(), reason, message);
  }

  public boolean isTrue() {
    return TRUE.equals(status);
  }
}

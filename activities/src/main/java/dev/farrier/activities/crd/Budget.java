package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * A disruption budget: at most {@code nodes} (a count or a percentage) of the NodePool's nodes disrupting at once,
 * while active ({@code schedule} cron in UTC plus {@code duration}; always when both are absent), for the
 * {@code reasons} listed (Underutilized, Empty, Drifted; every reason when null).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Budget(String nodes, String schedule, String duration, List<String> reasons) {
  /** Karpenter's default when a NodePool lists no budgets. */
  public static final Budget DEFAULT = new Budget("10%", null, null, null);
}

package dev.farrier.workflows.activities;

import java.util.List;

/**
 * What {@link NodeActivities#surge} answered for a {@link SurgePass}: one outcome per pod it got to, in order. A pass
 * out of time stops starting surges, so the later pods may have none this pass (their last answer stands).
 *
 * @param outcomes  the answers, each naming its pod
 */
public record SurgeAnswers(List<SurgeOutcome> outcomes) {
  public SurgeAnswers {
    outcomes = outcomes == null ? List.of() : List.copyOf(outcomes);
  }
}

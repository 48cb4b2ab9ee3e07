package dev.farrier.sandbox.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PlannedPodsWatchTest {
  private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");

  @Test
  void aPodPlannedTwiceCountsTheEarlierLaunchWhicheverClaimIsListedFirst() {
    var planned = Map.of("late", Set.of("u1", "u2"), "early", Set.of("u1"), "other", Set.of("u3"));
    var launched = Map.of("early", T0, "late", T0.plusSeconds(30), "other", T0.plusSeconds(5));
    assertEquals(Map.of("u1", T0, "u2", T0.plusSeconds(30), "u3", T0.plusSeconds(5)), PlannedPodsWatch.firstLaunch(planned, launched));
  }

  @Test
  void aClaimNeverLaunchedGivesItsPodsNoLaunch() {
    var planned = Map.of("failed", Set.of("u1", "u2"), "launched", Set.of("u2"));
    var launched = Map.of("launched", T0);
    assertEquals(Map.of("u2", T0), PlannedPodsWatch.firstLaunch(planned, launched));
  }
}

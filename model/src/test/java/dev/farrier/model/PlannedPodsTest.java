package dev.farrier.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PlannedPodsTest {
  @Test
  void theUidsReadBackAreThoseWrittenInTheirOrderAndOnlyPodsWithAUidAreWritten() {
    String value = PlannedPods.format(List.of(new PodRef("ns", "a", "u2"), new PodRef("ns", "b", null),
        new PodRef("ns", "c", " "), new PodRef("ns", "d", "u1")));

    assertEquals("u2,u1", value);
    assertEquals(List.of("u2", "u1"), PlannedPods.uids(Map.of(WellKnown.PLANNED_PODS_ANNOTATION, value)));
  }

  @Test
  void theUidsOfThePodsAClaimWasCreatedForAreKeptOnIt() {
    // Moved from PromisedPodsTest with PlannedPods.format.
    assertEquals("u1,u2", PlannedPods.format(List.of(new PodRef("ns", "a", "u1"), new PodRef("ns", "b", "u2"), new PodRef("ns", "c", null))));
  }

  @Test
  void noAnnotationsABlankValueOrEmptyEntriesNameNoPod() {
    Map<String, String> none = new HashMap<>();
    none.put(WellKnown.PLANNED_PODS_ANNOTATION, null);

    assertEquals(List.of(), PlannedPods.uids(null));
    assertEquals(List.of(), PlannedPods.uids(Map.of()));
    assertEquals(List.of(), PlannedPods.uids(none));
    assertEquals(List.of(), PlannedPods.uids(Map.of(WellKnown.PLANNED_PODS_ANNOTATION, " ")));
    assertEquals(List.of("u1", "u2"), PlannedPods.uids(Map.of(WellKnown.PLANNED_PODS_ANNOTATION, "u1,,u2,")));
  }

  @Test
  void atMostTheCapIsWritten() {
    List<PodRef> pods = IntStream.range(0, PlannedPods.MAX + 5).mapToObj(i -> new PodRef("ns", "p" + i, "u" + i)).toList();

    assertEquals(PlannedPods.MAX, PlannedPods.uids(Map.of(WellKnown.PLANNED_PODS_ANNOTATION, PlannedPods.format(pods))).size());
  }
}

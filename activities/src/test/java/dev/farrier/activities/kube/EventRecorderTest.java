package dev.farrier.activities.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EventRecorderTest {
  @Test
  void theSameOccurrenceAlwaysGetsTheSameEventName() {
    ClusterEvent drifted = new ClusterEvent("NodeClaim", "default-abcde", ClusterEvent.NORMAL, "DisruptionLaunching", "drifted");

    String name = EventRecorder.eventName(drifted);

    assertEquals(name, EventRecorder.eventName(drifted));
    assertTrue(name.matches("default-abcde\\.[0-9a-f]{16}"), name);
    assertNotEquals(name, EventRecorder.eventName(
        new ClusterEvent("NodeClaim", "default-abcde", ClusterEvent.NORMAL, "DisruptionLaunching", "expired")));
  }
}

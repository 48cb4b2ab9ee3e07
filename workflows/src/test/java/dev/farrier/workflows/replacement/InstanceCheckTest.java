package dev.farrier.workflows.replacement;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When a drain that does not finish asks whether its instance is gone. */
class InstanceCheckTest {
  @Test
  void anInterruptedNodeAsksAfterEveryPassOthersAtMostOnceAMinute() {
    assertTrue(DrainPolicy.checkInstance(1_000, 1_000, true), "interrupted: every pass");
    assertFalse(DrainPolicy.checkInstance(60_999, 1_000, false));
    assertTrue(DrainPolicy.checkInstance(61_000, 1_000, false), "a minute after the last look");
    assertTrue(DrainPolicy.checkInstance(3_600_000, 1_000, false));
    assertFalse(DrainPolicy.checkInstance(1_000, 1_000, false));
  }
}

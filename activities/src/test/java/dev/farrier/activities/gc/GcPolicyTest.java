package dev.farrier.activities.gc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GcPolicyTest {
  @ParameterizedTest
  @CsvSource({"0, 1", "1, 1", "4, 1", "9, 1", "10, 2", "14, 2", "15, 3", "100, 20", "1000, 200"})
  void atMostTheShareRoundedDownAndAlwaysOne(int fleet, int maxGone) {
    assertEquals(maxGone, GcPolicy.withGrace(Duration.ofMinutes(5)).maxGone(fleet));
  }

  @Test
  void aShareOfZeroStillLetsOneGoAndNonsenseIsRefused() {
    assertEquals(1, new GcPolicy(Duration.ZERO, Duration.ZERO, 0).maxGone(100));
    assertEquals(100, new GcPolicy(Duration.ZERO, Duration.ZERO, 1).maxGone(100));
    assertThrows(IllegalArgumentException.class, () -> new GcPolicy(Duration.ZERO, Duration.ZERO, 1.5));
    assertThrows(IllegalArgumentException.class, () -> new GcPolicy(Duration.ZERO, Duration.ZERO, Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> new GcPolicy(Duration.ofSeconds(-1), Duration.ZERO, 0.2));
    assertThrows(IllegalArgumentException.class, () -> new GcPolicy(Duration.ZERO, Duration.ofSeconds(-1), 0.2));
  }
}

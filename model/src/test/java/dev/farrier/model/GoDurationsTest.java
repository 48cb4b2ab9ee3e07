package dev.farrier.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GoDurationsTest {
  @ParameterizedTest
  @CsvSource({"30s, 30000", "1h30m, 5400000", "90m, 5400000", "1.5h, 5400000", "720h, 2592000000", "250ms, 250", "1m0.5s, 60500"})
  void readsGoDurations(String text, long millis) {
    assertEquals(millis, GoDurations.toMillis(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"Never", "never", "", " ", "soon", "1x", "h", "10", "1h 30m", "-5m"})
  void neverBlankAndUnreadableTextAreNoDuration(String text) {
    assertNull(GoDurations.toMillis(text));
  }
}

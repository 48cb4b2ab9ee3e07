package dev.farrier.worker.observability;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The version the build wrote, not the placeholder or {@code unspecified}. */
class BuildInfoTest {
  @Test
  void theVersionIsTheProjects() {
    String version = BuildInfo.version();
    assertFalse(version.contains("${"), version);
    assertTrue(version.matches("\\d+\\.\\d+\\.\\d+.*"), version);
  }
}

package dev.farrier.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KarpenterBenchOutputTest {
  /** Karpenter v1.14.1's BenchmarkScheduling1000 on the project's machine, as its test binary printed it. */
  private static String captured() throws IOException {
    try (InputStream in = KarpenterBenchOutputTest.class.getResourceAsStream("/karpenter/BenchmarkScheduling1000.txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void readsPodsPerSecondNodesAndTimeFromARealRun() throws IOException {
    KarpenterBenchOutput out = KarpenterBenchOutput.parse(captured());
    assertEquals("BenchmarkScheduling1000", out.benchmark());
    assertEquals(1, out.iterations());
    assertEquals(69.61, out.podsPerSecond(), 1e-9);
    assertEquals(200, out.nodes());
    assertEquals(1000, out.pods());
    assertEquals(14_366.54593, out.millisPerSolve(), 1e-6);
    assertEquals("AMD EPYC", out.cpu());
  }

  /** Go prints large metrics without decimals and small ones with four significant figures. */
  @Test
  void readsEveryFormatGoPrintsMetricsIn() {
    KarpenterBenchOutput out = KarpenterBenchOutput.parse(
        "BenchmarkScheduling20000   \t       1\t123456789012 ns/op\t      7123 nodes\t     20000 pods\t         1.620 pods/sec\n");
    assertEquals(7123, out.nodes());
    assertEquals(1.62, out.podsPerSecond(), 1e-9);
    assertEquals("", out.cpu());
  }

  @Test
  void aFailedRunOrNoResultIsRefused() throws IOException {
    assertThrows(IllegalArgumentException.class, () -> KarpenterBenchOutput.parse(
        "--- FAIL: BenchmarkScheduling1000-2\n    expected all pods to schedule, got 3 pods that didn't\nFAIL\n"));
    assertThrows(IllegalArgumentException.class, () -> KarpenterBenchOutput.parse("goos: linux\nPASS\n"));
    assertThrows(IllegalArgumentException.class, () -> KarpenterBenchOutput.parse(captured() + captured()));
  }

  @Test
  void aMissingMetricIsNamed() {
    KarpenterBenchOutput out = KarpenterBenchOutput.parse("BenchmarkScheduling1000-2 \t 1 \t 5 ns/op\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, out::podsPerSecond);
    assertEquals("BenchmarkScheduling1000 reported no pods/sec (it reported [ns/op])", e.getMessage());
  }
}

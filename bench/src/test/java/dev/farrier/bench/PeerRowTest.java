package dev.farrier.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PeerRowTest {
  private static final KarpenterBenchOutput KARPENTER = new KarpenterBenchOutput("BenchmarkScheduling1000", 1,
      Map.of("ns/op", 2.5e9, "nodes", 380.0, "pods", 1000.0, "pods/sec", 400.0), "AMD EPYC");

  @Test
  void speedRatioIsFarriersPodsPerSecondOverKarpenters() {
    // 1,000 pods in a median of 50 ms: 20,000 pods/s, 50 times Karpenter's 400.
    PeerRow row = row(50, 10.0, 10.0);
    assertEquals(20_000, row.farrier().warm().podsPerSecond(), 1e-6);
    assertEquals(50, row.speedRatio(), 1e-9);
  }

  /** Cold: one plan of 1,000 pods in 400 ms in a fresh JVM, 2,500 pods/s, 6.25 times Karpenter's 400. */
  @Test
  void coldSpeedRatioIsFarriersOneFreshPlanOverKarpenters() {
    assertEquals(6.25, row(50, 10.0, 10.0).coldSpeedRatio(), 1e-9);
  }

  @Test
  void priceNotHigherWhenEqualOrLowerAndNotWhenHigher() {
    assertTrue(row(50, 10.0, 10.0).priceNotHigher());
    assertTrue(row(50, 9.5, 10.0).priceNotHigher());
    // The same fleet summed in another order may differ in the last bits: still equal.
    assertTrue(row(50, 10.0 + 1e-12, 10.0).priceNotHigher());
    assertFalse(row(50, 10.01, 10.0).priceNotHigher());
    assertEquals(1.001, row(50, 10.01, 10.0).priceRatio(), 1e-12);
  }

  @Test
  void rowShowsBothSidesTheRatiosAndTheVerdict() {
    assertEquals("| 1000 | 2500 | 400 | 380 | 10.00 (2) | 50.0 (3) | 20000 | 400 | 377 | 10.01 | 50.0x (6.3x) | 1.001 | **no** "
        + "| 9.00 | 12.1-13.9 / 3.0-2.5 |",
        PeerReport.row(row(50, 10.01, 10.0)));
    assertEquals(PeerReport.HEADER.split("\\|").length, PeerReport.row(row(50, 10.0, 10.0)).split("\\|").length);
  }

  /** Karpenter's plan at {@code karpenterPrice} in two claims; Farrier's at {@code farrierPrice}, median {@code millis}. */
  private static PeerRow row(double millis, double farrierPrice, double karpenterPrice) {
    KarpenterPlan plan = new KarpenterPlan(List.of(new KarpenterPlan.Claim(600, "fake-it-9", "test-zone-1", "spot",
        karpenterPrice / 2), new KarpenterPlan.Claim(400, "fake-it-9", "test-zone-2", "spot", karpenterPrice / 2)));
    CaseResult farrier = new CaseResult(Workloads.Mix.DIVERSE, 1000, 2, Stats.of(List.of(millis - 1, millis, millis + 1)),
        377, 0, 0, farrierPrice, new PriceBound(8.0, "x"), new PodClassBound(9.0, 30));
    return new PeerRow(1000, KARPENTER, plan, new LoadAverage.Span(12.05, 13.86),
        new FarrierRun(400, farrier, new LoadAverage.Span(3.0, 2.5)));
  }
}

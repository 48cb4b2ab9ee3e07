package dev.farrier.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class FarrierRunTest {
  private static final FarrierRun RUN = new FarrierRun(775.719123,
      new CaseResult(Workloads.Mix.DIVERSE, 1000, 2, Stats.of(List.of(37.4, 42.2, 51.1)), 200, 0, 0, 284.21777312345678,
          new PriceBound(208.84, "1.66 x fake-it-399"), new PodClassBound(208.84000001, 30)),
      new LoadAverage.Span(6.7, 4.95));

  /** Every number reads back exactly, so "not higher" is decided on the price Farrier's plan had. */
  @Test
  void aRunReadsBackExactlyAsWritten() {
    assertEquals(RUN, FarrierRun.parse(RUN.format() + "\n"));
  }

  @Test
  void coldPodsPerSecondIsThePodsOverTheOneColdPlan() {
    assertEquals(1000 / 0.775719123, RUN.coldPodsPerSecond(), 1e-9);
  }

  @Test
  void anotherLineOrAMissingFieldIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> FarrierRun.parse("Exception in thread \"main\" ..."));
    assertThrows(IllegalArgumentException.class, () -> FarrierRun.parse(RUN.format().replaceAll("\tprice=[^\t]*", "")));
    assertThrows(IllegalArgumentException.class, () -> FarrierRun.parse(RUN.format().replace("nodes=200", "nodes=lots")));
  }

  @Test
  void theLoadAroundAKarpenterRunReadsAsTheScriptWritesIt() {
    assertEquals(new LoadAverage.Span(12.05, 13.86), LoadAverage.Span.parse("12.05 13.86\n"));
    assertEquals("12.1-13.9", new LoadAverage.Span(12.05, 13.86).toString());
    assertThrows(IllegalArgumentException.class, () -> LoadAverage.Span.parse("12.05"));
  }
}

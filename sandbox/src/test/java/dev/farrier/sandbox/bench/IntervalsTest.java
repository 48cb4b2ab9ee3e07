package dev.farrier.sandbox.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.farrier.sandbox.bench.Intervals.Interval;
import java.util.List;
import org.junit.jupiter.api.Test;

class IntervalsTest {
  // Two slots: a and b run together, c takes the slot a freed, d the one b freed a little later.
  private final Intervals work = new Intervals(List.of(new Interval(0, 10_000), new Interval(0, 12_000),
      new Interval(10_000, 20_000), new Interval(13_000, 25_000)));

  @Test
  void theSpanRunsFromTheFirstStartToTheLastEnd() {
    assertEquals(25_000, work.spanMillis());
    assertEquals(44_000 / 25_000.0, work.meanConcurrency(), 1e-9);
    assertEquals(2, work.maxConcurrency());
  }

  @Test
  void runningCountsAStartButNotAnEnd() {
    assertEquals(2, work.runningAt(0));
    assertEquals(2, work.runningAt(10_000), "a ended, c started");
    assertEquals(1, work.runningAt(12_500), "the slot b freed is idle until d starts");
    assertEquals(0, work.runningAt(25_000));
  }

  @Test
  void overTimeFromAnOrigin() {
    var running = work.runningOverTime(-5_000, 10_000);
    assertEquals(4, running.size(), "at -5, 5, 15 and 25 s");
    assertArrayEquals(new double[] {0, 0}, running.get(0));
    assertArrayEquals(new double[] {10, 2}, running.get(1));
    assertArrayEquals(new double[] {20, 2}, running.get(2));
    assertArrayEquals(new double[] {30, 0}, running.get(3));
    var ended = work.endedOverTime(0, 12_000);
    assertArrayEquals(new double[] {12, 2}, ended.get(1));
    assertArrayEquals(new double[] {24, 3}, ended.get(2));
  }

  @Test
  void theIdealIsWholeWavesOfTheSlots() {
    assertEquals(10 * 30_000, Intervals.idealMillis(500, 50, 30_000));
    assertEquals(11 * 30_000, Intervals.idealMillis(501, 50, 30_000));
    assertEquals(30_000, Intervals.idealMillis(200, 200, 30_000));
    assertThrows(IllegalArgumentException.class, () -> Intervals.idealMillis(1, 0, 1));
  }

  @Test
  void anIntervalCannotEndBeforeItStarts() {
    assertThrows(IllegalArgumentException.class, () -> new Interval(2, 1));
    assertThrows(IllegalArgumentException.class, () -> new Intervals(List.of()));
  }
}

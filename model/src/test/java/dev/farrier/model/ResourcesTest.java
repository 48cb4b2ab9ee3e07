package dev.farrier.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourcesTest {
  private static final Resources HUGE = new Resources(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE,
      Map.of("nvidia.com/gpu", Long.MAX_VALUE));

  @Test
  void sumsSaturateInsteadOfWrappingAround() {
    Resources sum = HUGE.plus(Resources.of(1000, 1, 1)).plus(new Resources(0, 0, 1, 0, Map.of("nvidia.com/gpu", 1L)));

    assertEquals(HUGE, sum, "an absurd request stays absurd");
    assertFalse(sum.fitsIn(Resources.of(64_000, 1L << 40, 110)), "and fits nowhere");
  }

  @Test
  void differencesSaturateToo() {
    Resources negative = new Resources(Long.MIN_VALUE, Long.MIN_VALUE, 0, Long.MIN_VALUE, Map.of());

    assertEquals(new Resources(Long.MIN_VALUE, Long.MIN_VALUE, 0, Long.MIN_VALUE, Map.of()), negative.minus(Resources.of(1, 1, 1)));
    assertEquals(Long.MAX_VALUE, Resources.of(1, 0, 0).minus(new Resources(Long.MIN_VALUE, 0, 0, 0, Map.of())).milliCpu());
    assertEquals(Long.MIN_VALUE + 1, Resources.ZERO.minus(HUGE).milliCpu());
    assertEquals(Map.of("nvidia.com/gpu", Long.MIN_VALUE + 1), Resources.ZERO.minus(HUGE).extended());
  }

  @Test
  void ordinarySumsAreExact() {
    assertEquals(new Resources(1500, 3, 0, 2, Map.of("nvidia.com/gpu", 3L)),
        new Resources(1000, 1, 0, 1, Map.of("nvidia.com/gpu", 1L)).plus(new Resources(500, 2, 0, 1, Map.of("nvidia.com/gpu", 2L))));
    assertEquals(Resources.of(500, -1, 0), Resources.of(1000, 1, 1).minus(Resources.of(500, 2, 1)));
  }

  @Test
  void sumsWithoutExtendedResourcesTakeTheShortPath() {
    assertEquals(Resources.of(1500, 3, 2), Resources.of(1000, 1, 1).plus(Resources.of(500, 2, 1)));
  }

  @Test
  void addingZeroChangesNothing() {
    Resources r = new Resources(1000, 2048, 10, 3, Map.of("nvidia.com/gpu", 1L));
    assertEquals(r, Resources.ZERO.plus(r));
    assertEquals(r, r.plus(Resources.ZERO));
    assertEquals(r, r.minus(Resources.ZERO));
    assertEquals(-5, Resources.add(0, -5));
    assertEquals(Long.MAX_VALUE, Resources.add(Long.MAX_VALUE, 0));
  }

  @Test
  void fitsInChecksEveryAmountAtItsBoundary() {
    Resources capacity = new Resources(2000, 4096, 100, 10, Map.of("nvidia.com/gpu", 1L));
    assertTrue(capacity.fitsIn(capacity), "exactly full fits");
    assertFalse(new Resources(2001, 1, 0, 1, Map.of()).fitsIn(capacity), "cpu");
    assertFalse(new Resources(1, 4097, 0, 1, Map.of()).fitsIn(capacity), "memory");
    assertFalse(new Resources(1, 1, 0, 11, Map.of()).fitsIn(capacity), "pods");
    assertFalse(new Resources(1, 1, 101, 1, Map.of()).fitsIn(capacity), "ephemeral storage");
    assertTrue(new Resources(1, 1, 0, 1, Map.of()).fitsIn(new Resources(1, 1, 0, 1, Map.of())), "no storage asked: none needed");
    assertFalse(new Resources(1, 1, 0, 1, Map.of("nvidia.com/gpu", 2L)).fitsIn(capacity), "extended");
    assertFalse(new Resources(1, 1, 0, 1, Map.of("example.com/fpga", 1L)).fitsIn(capacity), "an extended resource the node lacks");
    assertTrue(new Resources(1, 1, 0, 1, Map.of("example.com/fpga", 0L)).fitsIn(capacity), "asking for none of it");
  }
}

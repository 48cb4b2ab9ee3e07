package dev.farrier.activities.headroom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.planner.Headroom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** {@code farrier.dev/headroom} read into a {@link Headroom}, and every bad value refused with a message naming it. */
class HeadroomAnnotationTest {
  private static final long GI = 1L << 30;

  @Test
  void aCountOfPodsOfOneSize() {
    assertEquals(Headroom.ofPods(4, 1000, 2 * GI), HeadroomAnnotation.parse("pods=4,cpu=1,memory=2Gi"));
    assertEquals(Headroom.ofPods(2, 500, 0), HeadroomAnnotation.parse(" pods = 2 , cpu = 500m "));
    assertEquals(Headroom.ofPods(1, 0, 512L << 20), HeadroomAnnotation.parse("memory=512Mi,pods=1"));
    assertEquals(Headroom.ofPods(3, 1500, 1_000_000_000L), HeadroomAnnotation.parse("pods=3,cpu=1.5,memory=1G"));
  }

  @Test
  void aPercentOfThePoolsCpu() {
    assertEquals(Headroom.ofCpuPercent(10), HeadroomAnnotation.parse("cpu=10%"));
    assertEquals(Headroom.ofCpuPercent(50), HeadroomAnnotation.parse("cpu=50%"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "''                          | empty",
      "pods=4                      | each placeholder needs a size",
      "cpu=1,memory=2Gi            | pods is required",
      "pods=4,cpu=lots             | cpu 'lots' is not a quantity",
      "pods=4,memory=2GiB          | memory '2GiB' is not a quantity",
      "pods=4,cpu=-1               | cpu '-1' is negative",
      "pods=0,cpu=1                | pods must be a whole number from 1 to 1000, not '0'",
      "pods=1001,cpu=1             | pods must be a whole number from 1 to 1000",
      "pods=four,cpu=1             | not 'four'",
      "pods=4,cpu=0                | a placeholder of no cpu and no memory keeps no room",
      "cpu=0%                      | cpu percent must be a whole number from 1 to 50, not '0%'",
      "cpu=51%                     | cpu percent must be a whole number from 1 to 50, not '51%'",
      "cpu=150%                    | not '150%'",
      "cpu=2.5%                    | not '2.5%'",
      "cpu=10%,pods=2              | no pods or memory beside it",
      "pods=4,cpu=1,gpu=1          | unknown key 'gpu'",
      "pods=4,cpu=1,cpu=2          | cpu is given twice",
      "pods=4;cpu=1                | each placeholder needs a size",
      "pods=4,,cpu=1               | '' is not key=value",
  })
  void aBadValueIsRefusedNamingTheAnnotationAndTheProblem(String value, String problem) {
    var e = assertThrows(HeadroomAnnotation.Invalid.class, () -> HeadroomAnnotation.parse(value));
    assertTrue(e.getMessage().startsWith("farrier.dev/headroom '" + value + "': "), e.getMessage());
    assertTrue(e.getMessage().contains(problem), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {" ", "cpu"})
  void aValueWithoutPairsIsRefused(String value) {
    assertThrows(HeadroomAnnotation.Invalid.class, () -> HeadroomAnnotation.parse(value));
  }
}

package dev.farrier.sandbox.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PercentilesTest {
  @Test
  void theP99OfAHundredIsTheNinetyNinthAndOfTwoHundredTheHundredNinetyEighth() {
    var hundred = IntStream.rangeClosed(1, 100).boxed().toList();
    assertEquals(new Percentiles(100, 50.5, 99, 100), Percentiles.of(hundred));
    var twoHundred = IntStream.rangeClosed(1, 200).boxed().toList();
    assertEquals(198, Percentiles.of(twoHundred).p99());
  }

  @Test
  void aFewMeasurementsGiveTheirMaximumAsP99AndOrderDoesNotMatter() {
    assertEquals(new Percentiles(3, 2, 9, 9), Percentiles.of(List.of(9, 1, 2)));
    assertEquals(new Percentiles(1, 4.5, 4.5, 4.5), Percentiles.of(List.of(4.5)));
  }

  @Test
  void noMeasurementIsAnError() {
    assertThrows(IllegalArgumentException.class, () -> Percentiles.of(List.of()));
  }
}

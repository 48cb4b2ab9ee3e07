package dev.farrier.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ColdRunTest {
  @Test
  void aLineReadsBackAsWritten() {
    ColdRun run = new ColdRun(5000, 1234.5678, 1000, 1414.123456);
    assertEquals("cold plan: 5000 pods in 1234.568 ms, 1000 nodes, $1414.123456/h", run.format());
    assertEquals(new ColdRun(5000, 1234.568, 1000, 1414.123456), ColdRun.parse(run.format() + "\n"));
  }

  @Test
  void podsPerSecondOfTheOnePlan() {
    assertEquals(4050.0, new ColdRun(5000, 1234.5679, 1000, 1.0).podsPerSecond(), 0.01);
  }

  @Test
  void anythingElseIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> ColdRun.parse("Exception in thread \"main\" ..."));
  }
}

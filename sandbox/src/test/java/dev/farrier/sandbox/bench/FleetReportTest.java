package dev.farrier.sandbox.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class FleetReportTest {
  @Test
  void aPercentageBudgetRoundsUpAndACountIsTakenAsItIs() {
    assertEquals(50, FleetReport.slots("10%", 500));
    assertEquals(51, FleetReport.slots("10%", 501));
    assertEquals(1, FleetReport.slots("10%", 3));
    assertEquals(200, FleetReport.slots("100%", 200));
    assertEquals(7, FleetReport.slots(" 7 ", 500));
    assertThrows(NumberFormatException.class, () -> FleetReport.slots("ten", 500));
  }

  @Test
  void aPerfectUpgradeIsTheCanaryThenTheRestAFullSetOfSlotsAtATime() {
    assertEquals(11, FleetReport.upgradeBatches(500, 50), "the canary, then 499 in ten batches of up to 50");
    assertEquals(11, FleetReport.upgradeBatches(501, 50));
    assertEquals(12, FleetReport.upgradeBatches(502, 50));
    assertEquals(1, FleetReport.upgradeBatches(1, 50));
    assertEquals(0, FleetReport.upgradeBatches(0, 50));
  }
}

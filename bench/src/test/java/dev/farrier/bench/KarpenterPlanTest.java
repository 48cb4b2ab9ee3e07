package dev.farrier.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class KarpenterPlanTest {
  /** Lines as tools/karpenter-peer writes them (prices as Go's strconv.FormatFloat(p, 'g', -1, 64) prints them). */
  private static final List<String> LINES = List.of(
      "# pods\tinstance-type\tzone\tcapacity-type\tprice",
      "1\tfake-it-0\ttest-zone-1\tspot\t0.3147483648",
      "7\tfake-it-3\ttest-zone-3\ton-demand\t1.2589934592");

  @Test
  void sumsTheClaimsCheapestOfferings() {
    KarpenterPlan plan = KarpenterPlan.parse(LINES);
    assertEquals(2, plan.claims().size());
    assertEquals(8, plan.pods());
    assertEquals(0.3147483648 + 1.2589934592, plan.pricePerHour(), 1e-12);
    assertEquals(new KarpenterPlan.Claim(7, "fake-it-3", "test-zone-3", "on-demand", 1.2589934592), plan.claims().get(1));
  }

  @Test
  void pricesAgreeWithFarriersCopyOfTheCatalogue() {
    KarpenterPlan.parse(LINES).checkPrices(Catalog.named("karpenter"));
  }

  @Test
  void aPriceTheCatalogueDoesNotAskForIsRefused() {
    KarpenterPlan wrong = KarpenterPlan.parse(List.of("1\tfake-it-0\ttest-zone-1\tspot\t0.3147483649"));
    assertThrows(IllegalStateException.class, () -> wrong.checkPrices(Catalog.named("karpenter")));
    KarpenterPlan noSuchOffering = KarpenterPlan.parse(List.of("1\tfake-it-0\ttest-zone-3\tspot\t0.3147483648"));
    assertThrows(IllegalStateException.class, () -> noSuchOffering.checkPrices(Catalog.named("karpenter")));
  }

  @Test
  void aLineOfAnotherShapeIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> KarpenterPlan.parse(List.of("1 fake-it-0 test-zone-1 spot 0.31")));
  }
}

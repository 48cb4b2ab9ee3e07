package dev.farrier.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.OfferingView;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The facts of Karpenter's fake {@code InstanceTypes(400)}, as its benchmark plans with them. */
class KarpenterFakeCatalogTest {
  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;
  private final Catalog catalog = Catalog.named("karpenter");

  @Test
  void fourHundredTypesNamedAsKarpentersFake() {
    assertEquals(400, catalog.types().size());
    assertEquals("fake-it-0", catalog.types().getFirst().name());
    assertEquals("fake-it-399", catalog.types().getLast().name());
  }

  /** Karpenter's allocatable is capacity less its kube-reserved 100m and 10Mi; Farrier's planner must get the same. */
  @Test
  void allocatableOfEveryTypeIsKarpentersCapacityLessTheFakesOverhead() {
    for (int i = 0; i < 400; i++) {
      long vcpu = i + 1;
      assertEquals(Resources.of(vcpu * 1000 - 100, 2 * vcpu * GIB - 10 * MIB, 10 * vcpu),
          catalog.allocatable(catalog.types().get(i)), catalog.types().get(i).name());
    }
  }

  @Test
  void statedMemoryIsTheLeastThatLeavesTheFakesMemoryAfterTheVmOverhead() {
    for (long gib : List.of(2L, 4L, 100L, 800L)) {
      long stated = KarpenterFakeCatalog.statedMemoryMiB(gib * 1024);
      long less = stated - 1;
      assertTrue(less - (less * 75 + 999) / 1000 < gib * 1024, gib + " GiB: " + stated + " MiB is not the least");
    }
  }

  /** 0.1 per vCPU plus 0.1 per 10^9 bytes: 0.3147483648 per vCPU of a type with 2 GiB per vCPU. */
  @Test
  void everyOfferingOfATypeHasTheFakesPriceFromItsResources() {
    assertEquals(0.3147483648, BenchCatalog.cheapestPrice(catalog.types().getFirst()), 1e-12);
    assertEquals(400 * 0.3147483648, BenchCatalog.cheapestPrice(catalog.types().getLast()), 1e-9);
    for (InstanceTypeView type : catalog.types()) {
      Set<Double> prices = type.offerings().stream().map(OfferingView::pricePerHour).collect(Collectors.toSet());
      assertEquals(1, prices.size(), type.name());
    }
  }

  @Test
  void spotInTwoZonesOnDemandInThreeAllAvailable() {
    Set<String> offerings = catalog.types().get(17).offerings().stream().filter(OfferingView::available)
        .map(o -> o.capacityType() + " " + o.zone()).collect(Collectors.toSet());
    assertEquals(Set.of("spot test-zone-1", "spot test-zone-2", "on-demand test-zone-1", "on-demand test-zone-2",
        "on-demand test-zone-3"), offerings);
  }

  @Test
  void sizeLabelIsLargeAboveFourVcpuAndEightGib() {
    assertEquals(Map.of("size", "small", "integer", "4", WellKnown.INSTANCE_TYPE_LABEL, "fake-it-3", WellKnown.ARCH_LABEL, "amd64",
        WellKnown.OS_LABEL, "linux"), catalog.types().get(3).labels());
    assertEquals(Map.of("size", "large", "integer", "5", WellKnown.INSTANCE_TYPE_LABEL, "fake-it-4", WellKnown.ARCH_LABEL, "amd64",
        WellKnown.OS_LABEL, "linux"), catalog.types().get(4).labels());
  }

  /** A pod of exactly the smallest type's allocatable gets that type: the planner reads the fake's overhead. */
  @Test
  void thePlannerSizesClaimsWithTheFakesOverhead() {
    BenchPod pod = new BenchPod("p", 900, 2 * GIB - 10 * MIB, Map.of(), BenchPod.Constraint.NONE);
    ProvisioningPlan plan = SchedulingCase.plan(PlannerInput.snapshot(List.of(pod), catalog));
    assertEquals(1, plan.claims().size());
    assertEquals(0.3147483648, new PlanPrice(catalog.types()).perHour(plan), 1e-12);
  }

  @Test
  void theRealCatalogueStaysTheDefaultAndOthersAreRefused() {
    assertEquals(400, Catalog.named("us-east-1").types().size());
    assertThrows(IllegalArgumentException.class, () -> Catalog.named("gcp"));
  }
}

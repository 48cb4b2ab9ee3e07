package dev.farrier.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import java.util.List;
import org.junit.jupiter.api.Test;

class OfferingCapacityTest {
  private static InstanceTypeView type(String name, String arch, OfferingView... offerings) {
    return new InstanceTypeView(name, arch, InstanceTypeView.standardLabels(name, 2, 8192), Resources.of(2000, 8L << 30, 29),
        List.of(offerings));
  }

  private static final List<InstanceTypeView> TYPES = List.of(
      type("m5.large", "amd64", new OfferingView("us-east-1a", "on-demand", 0.1, false), new OfferingView("us-east-1a", "spot", 0.03, true)),
      type("m6g.large", "arm64", new OfferingView("us-east-1a", "on-demand", 0.08, true)));

  @Test
  void countsOnlyTheOfferingsTheRequirementsAllow() {
    assertEquals(new OfferingCapacity(3, 2), OfferingCapacity.of(List.of(), TYPES));
    var onDemandAmd64 = OfferingCapacity.of(List.of(Requirement.in("kubernetes.io/arch", List.of("amd64")),
        Requirement.in("karpenter.sh/capacity-type", List.of("on-demand"))), TYPES);
    assertEquals(new OfferingCapacity(1, 0), onDemandAmd64);
    assertTrue(onDemandAmd64.exhausted(), "its only offering is out of capacity");
    assertFalse(OfferingCapacity.of(List.of(Requirement.in("kubernetes.io/arch", List.of("amd64"))), TYPES).exhausted(), "spot is left");
  }

  @Test
  void aNodePoolThatAllowsNothingIsNotOutOfCapacity() {
    var none = OfferingCapacity.of(List.of(Requirement.in("node.kubernetes.io/instance-type", List.of("x9.huge"))), TYPES);
    assertEquals(new OfferingCapacity(0, 0), none);
    assertFalse(none.exhausted());
    assertEquals(new OfferingCapacity(1, 1), OfferingCapacity.of(List.of(Requirement.in("topology.kubernetes.io/zone", List.of("us-east-1a")),
        Requirement.in("kubernetes.io/arch", List.of("arm64")), new Requirement("team", "In", List.of("blue"), null)), TYPES),
        "labels no instance type has (a NodePool's own) do not filter offerings");
  }
}

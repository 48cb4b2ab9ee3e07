package dev.farrier.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodeAllocatable;
import dev.farrier.planner.OfferingView;
import dev.farrier.planner.PodSpecView;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class NaivePackingTest {
  static final long MIB = 1L << 20;
  static final InstanceTypeView M_LARGE = type("m5.large", 2, 8, new OfferingView("us-east-1a", "on-demand", 0.096, true),
      new OfferingView("us-east-1a", "spot", 0.030, true), new OfferingView("us-east-1b", "spot", 0.025, true));
  static final InstanceTypeView M_XLARGE = type("m5.xlarge", 4, 16, new OfferingView("us-east-1a", "on-demand", 0.192, true),
      new OfferingView("us-east-1a", "spot", 0.060, true));
  static final InstanceTypeView C_LARGE = type("c5.large", 2, 4, new OfferingView("us-east-1a", "on-demand", 0.085, true));
  static final List<InstanceTypeView> TYPES = List.of(M_LARGE, M_XLARGE, C_LARGE);

  @Test
  void theTypeIsTheCheapestGeneralPurposeOneThatHoldsTheMedianPodFourTimes() {
    assertEquals(1_930, NodeAllocatable.of(M_LARGE, KubeletSettings.DEFAULTS).milliCpu(), "2 vCPU less the EKS kube-reserved");
    // Median 500m: four need 2,000m, more than an m5.large gives; c5.large is cheaper but not general-purpose.
    assertEquals("m5.xlarge", NaivePacking.type(pods(100, 500, 500, 1000, 1500), TYPES).name());
    // Median 250m (the upper median of an even count): an m5.large holds four.
    assertEquals("m5.large", NaivePacking.type(pods(100, 250, 250, 1500), TYPES).name());
  }

  @Test
  void podsGoInArrivalOrderOnTheFirstNodeThatHoldsThem() {
    // m5.large gives 1,930m: 1000 opens node 1; 1000 does not fit its 930 left, opens node 2; 500 fits node 1 (430 left);
    // 900 fits only node 2; 400 fits node 1 again. First fit decreasing would have paired them otherwise.
    Fleet fleet = NaivePacking.pack(specs(1000, 1000, 500, 900, 400), M_LARGE);
    assertEquals(2, fleet.size());
    assertEquals(List.of("pod-0", "pod-2", "pod-4"), names(fleet.node("node-00001").pods()));
    assertEquals(List.of("pod-1", "pod-3"), names(fleet.node("node-00002").pods()));
    fleet.nodes().forEach(n -> {
      assertEquals("m5.large", n.type().name());
      assertEquals(WellKnown.CAPACITY_ON_DEMAND, n.offering().capacityType());
    });
    assertEquals(0.192, fleet.pricePerHour(), 1e-9);
  }

  @Test
  void aPodWhoseAffinitySelectsNoPodYetIsTriedAgainAfterTheOthers() {
    var follower = new BenchPod("pod-0", 500, 100 * MIB, Map.of(), new BenchPod.Constraint(BenchPod.Kind.AFFINITY,
        WellKnown.ZONE_LABEL, Map.of("app", "leader")));
    var leader = new BenchPod("pod-1", 500, 100 * MIB, Map.of("app", "leader"), BenchPod.Constraint.NONE);
    Fleet fleet = NaivePacking.pack(List.of(PlannerInput.pod(follower), PlannerInput.pod(leader)), M_LARGE);
    assertEquals(1, fleet.size());
    assertEquals(List.of("pod-1", "pod-0"), names(fleet.node("node-00001").pods()));
  }

  static List<BenchPod> pods(long... milliCpu) {
    return LongStream.range(0, milliCpu.length)
        .mapToObj(i -> new BenchPod("pod-" + i, milliCpu[(int) i], 100 * MIB, Map.of(), BenchPod.Constraint.NONE)).toList();
  }

  static List<PodSpecView> specs(long... milliCpu) {
    return pods(milliCpu).stream().map(PlannerInput::pod).toList();
  }

  static List<String> names(List<PodSpecView> pods) {
    return pods.stream().map(p -> p.pod().name()).toList();
  }

  static InstanceTypeView type(String name, int vcpu, int gib, OfferingView... offerings) {
    return new InstanceTypeView(name, "amd64", InstanceTypeView.standardLabels(name, vcpu, gib * 1024L),
        Resources.of(vcpu * 1000L, (long) gib << 30, 29), List.of(offerings));
  }
}

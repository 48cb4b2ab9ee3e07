package dev.farrier.planner;

import dev.farrier.model.PodRef;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Workloads in the shape of Karpenter's scheduling benchmark: a synthetic catalogue of a few hundred types and the
 * "diverse" mix (a fifth each generic, zonal spread, hostname spread, zonal pod affinity, hostname anti-affinity).
 */
final class Workloads {
  private Workloads() {}

  static final List<String> ZONES = List.of("us-east-1a", "us-east-1b", "us-east-1c");
  private static final String[] SIZES = {"large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge", "24xlarge"};
  private static final int[] VCPUS = {2, 4, 8, 16, 32, 48, 64, 96};

  /** About {@code families x 8} types: memory per vCPU 2, 4 or 8 GiB, both arches, on-demand and spot everywhere. */
  static List<InstanceTypeView> catalogue(int families) {
    List<InstanceTypeView> types = new ArrayList<>();
    Random random = new Random(42);
    for (int f = 0; f < families; f++) {
      int memPerCpu = new int[] {2, 4, 8}[f % 3];
      String category = new String[] {"c", "m", "r"}[f % 3];
      boolean arm = f % 4 == 3;
      String family = category + (5 + f / 12) + (arm ? "g" : "") + (char) ('a' + (f / 3) % 4);
      double perCpu = 0.02 + memPerCpu * 0.006 + random.nextDouble() * 0.01;
      for (int s = 0; s < SIZES.length; s++) {
        int vcpu = VCPUS[s];
        double price = perCpu * vcpu;
        List<OfferingView> offerings = new ArrayList<>();
        for (String zone : ZONES) {
          offerings.add(new OfferingView(zone, WellKnown.CAPACITY_ON_DEMAND, price, true));
          offerings.add(new OfferingView(zone, WellKnown.CAPACITY_SPOT, price * (0.3 + random.nextDouble() * 0.2), true));
        }
        long pods = Math.min(737, vcpu * 15L);
        types.add(Fixtures.type(family + "." + SIZES[s], arm ? "arm64" : "amd64", vcpu, (long) vcpu * memPerCpu, pods, offerings));
      }
    }
    return types;
  }

  static PodSpecView generic(Random random, int i) {
    return pod("generic-" + i, random, Map.of("app", "generic"), List.of(), List.of());
  }

  static List<PodSpecView> diverse(int count, Random random) {
    List<PodSpecView> pods = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      switch (i % 5) {
        case 0 -> pods.add(generic(random, i));
        case 1 -> pods.add(pod("zonal-spread-" + i, random, Map.of("app", "zonal-spread"),
            List.of(new TopologySpread(WellKnown.ZONE_LABEL, 1, true, null, PodSelector.of(Map.of("app", "zonal-spread"), List.of()))),
            List.of()));
        case 2 -> pods.add(pod("host-spread-" + i, random, Map.of("app", "host-spread"),
            List.of(new TopologySpread(WellKnown.HOSTNAME_LABEL, 1, true, null, PodSelector.of(Map.of("app", "host-spread"), List.of()))),
            List.of()));
        case 3 -> pods.add(pod("zonal-affinity-" + i, random, Map.of("app", "zonal-affinity"), List.of(),
            List.of(new PodAffinityTerm(WellKnown.ZONE_LABEL, PodSelector.of(Map.of("app", "zonal-affinity"), List.of()), Set.of(),
                false, false, true, 0))));
        default -> pods.add(pod("host-anti-" + i, random, Map.of("app", "host-anti"), List.of(),
            List.of(new PodAffinityTerm(WellKnown.HOSTNAME_LABEL, PodSelector.of(Map.of("app", "host-anti"), List.of()), Set.of(),
                false, true, true, 0))));
      }
    }
    return pods;
  }

  static List<PodSpecView> generic(int count, Random random) {
    List<PodSpecView> pods = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      pods.add(generic(random, i));
    }
    return pods;
  }

  private static PodSpecView pod(String name, Random random, Map<String, String> labels, List<TopologySpread> spread,
      List<PodAffinityTerm> affinity) {
    long cpu = new long[] {100, 250, 500, 1000, 1500}[random.nextInt(5)];
    long mem = new long[] {128, 256, 512, 1024, 2048, 4096}[random.nextInt(6)] * Fixtures.MIB;
    return new PodSpecView(new PodRef("default", name, name), Resources.of(cpu, mem, 1), Map.of(), List.of(), List.of(), "ReplicaSet",
        false, labels, List.of(), spread, affinity, List.of());
  }
}

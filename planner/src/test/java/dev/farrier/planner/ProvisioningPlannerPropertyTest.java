package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.PodRef;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.Taint;
import dev.farrier.model.Toleration;
import dev.farrier.model.UnschedulablePod;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Random workloads (seeded, so a failure names its seed and reproduces) checked against invariants stated without
 * the planner's own helpers: label matching, tolerations and limits are re-derived here from Kubernetes' rules.
 */
class ProvisioningPlannerPropertyTest {
  private static final int SEEDS = 150;
  private final ProvisioningPlanner planner = new ProvisioningPlanner();

  @Test
  void randomWorkloadsKeepEveryInvariant() {
    int placedTotal = 0;
    int unschedulableTotal = 0;
    for (int seed = 0; seed < SEEDS; seed++) {
      Random random = new Random(seed);
      ProvisioningSnapshot snapshot = randomSnapshot(random);
      ProvisioningPlan plan = planner.plan(snapshot, "seed-" + seed, ClaimNamer.standard());
      try {
        checkInvariants(snapshot, plan);
      } catch (AssertionError e) {
        fail("seed " + seed + ": " + e.getMessage(), e);
      }
      placedTotal += plan.claims().stream().mapToInt(c -> c.pods().size()).sum();
      unschedulableTotal += plan.unschedulable().size();
    }
    // The generator must exercise both outcomes, or the invariants above prove little.
    assertTrue(placedTotal > SEEDS * 5, "placed " + placedTotal);
    assertTrue(unschedulableTotal > SEEDS / 2, "unschedulable " + unschedulableTotal);
  }

  private static void checkInvariants(ProvisioningSnapshot snapshot, ProvisioningPlan plan) {
    Map<String, PodSpecView> pods = new HashMap<>();
    snapshot.pendingPods().forEach(p -> pods.put(p.pod().key(), p));
    Map<String, NodePoolView> pools = new HashMap<>();
    snapshot.nodePools().forEach(p -> pools.put(p.name(), p));

    // Every pod is either placed or reported, exactly once.
    Set<String> seen = new HashSet<>();
    for (NodeClaimRequest claim : plan.claims()) {
      for (PodRef ref : claim.pods()) {
        assertTrue(seen.add(ref.key()), "placed twice: " + ref.key());
      }
    }
    for (UnschedulablePod u : plan.unschedulable()) {
      assertTrue(seen.add(u.pod().key()), "placed and unschedulable: " + u.pod().key());
      for (NodePoolView pool : snapshot.nodePools()) {
        assertTrue(u.reason().contains("nodepool " + pool.name() + ": "), "reason names every pool: " + u.reason());
      }
    }
    assertEquals(pods.keySet(), seen);

    Map<String, Resources> counted = new TreeMap<>();
    for (NodeClaimRequest claim : plan.claims()) {
      NodePoolView pool = pools.get(claim.nodePool());
      Map<String, InstanceTypeView> types = new HashMap<>();
      snapshot.instanceTypesByNodePool().get(pool.name()).forEach(t -> types.put(t.name(), t));
      assertFalse(claim.instanceTypes().isEmpty());
      assertTrue(claim.instanceTypes().size() <= 60);

      Resources sum = Resources.ZERO;
      for (PodRef ref : claim.pods()) {
        Resources r = pods.get(ref.key()).requests();
        sum = sum.plus(new Resources(r.milliCpu(), r.memoryBytes(), r.ephemeralStorageBytes(), 1, r.extended()));
      }
      assertEquals(sum, claim.requests(), "claim requests are its pods' requests");

      InstanceTypeView cheapest = types.get(claim.instanceTypes().getFirst());
      assertTrue(claim.requests().fitsIn(KubeletReserve.allocatable(cheapest.capacity())),
          claim.name() + " over capacity of " + cheapest.name());
      // Whichever listed type launches, the pool stays within limits: count each resource at its largest.
      counted.merge(pool.name(), largest(claim, types), Resources::plus);

      List<String> zones = values(claim, WellKnown.ZONE_LABEL);
      List<String> capacityTypes = values(claim, WellKnown.CAPACITY_TYPE_LABEL);
      int offerings = 0;
      double previousPrice = -1;
      for (String typeName : claim.instanceTypes()) {
        InstanceTypeView type = types.get(typeName);
        assertTrue(claim.requests().fitsIn(KubeletReserve.allocatable(type.capacity())), typeName + " too small");
        double cheapestPrice = Double.MAX_VALUE;
        for (OfferingView o : type.offerings()) {
          if (!o.available() || !zones.contains(o.zone()) || !capacityTypes.contains(o.capacityType())) {
            continue;
          }
          cheapestPrice = Math.min(cheapestPrice, o.pricePerHour());
          offerings++;
          Map<String, String> node = nodeLabels(type, o, claim);
          for (Requirement r : pool.requirements()) {
            assertTrue(matches(r, node), "nodepool requirement " + r + " does not match " + node);
          }
          for (PodRef ref : claim.pods()) {
            PodSpecView pod = pods.get(ref.key());
            assertTrue(schedulable(pod, node), ref.key() + " does not match " + node);
          }
        }
        assertTrue(cheapestPrice >= previousPrice, "ranked cheapest first");
        previousPrice = cheapestPrice;
      }
      assertTrue(offerings > 0, "some offering can be bought");
      for (PodRef ref : claim.pods()) {
        for (Taint taint : pool.taints()) {
          assertTrue(tolerated(taint, pods.get(ref.key()).tolerations()), ref.key() + " does not tolerate " + taint);
        }
      }
    }

    assertLimitsHold(counted, pools);

    // Without limits nothing in the batch competes, so a pod reported unschedulable must be unschedulable alone.
    if (snapshot.nodePools().stream().allMatch(p -> p.limits().equals(NodePoolLimits.NONE))) {
      for (UnschedulablePod u : plan.unschedulable()) {
        ProvisioningSnapshot alone = new ProvisioningSnapshot(List.of(pods.get(u.pod().key())), snapshot.nodePools(),
            snapshot.instanceTypesByNodePool(), List.of());
        assertEquals(0, new ProvisioningPlanner().plan(alone, "x", ClaimNamer.standard()).claims().size(),
            u.pod().key() + " fits alone");
      }
    }
  }

  /** Each NodePool's usage plus what its new claims count (at their largest listed type) stays within its limits. */
  static void assertLimitsHold(Map<String, Resources> counted, Map<String, NodePoolView> pools) {
    for (var e : counted.entrySet()) {
      NodePoolView pool = pools.get(e.getKey());
      Resources total = pool.usage().plus(e.getValue());
      NodePoolLimits limits = pool.limits();
      assertTrue(limits.milliCpu() == null || total.milliCpu() <= limits.milliCpu(), "cpu limit of " + pool.name());
      assertTrue(limits.memoryBytes() == null || total.memoryBytes() <= limits.memoryBytes(), "memory limit of " + pool.name());
    }
  }

  static Resources largest(NodeClaimRequest claim, Map<String, InstanceTypeView> types) {
    long cpu = 0;
    long memory = 0;
    for (String name : claim.instanceTypes()) {
      cpu = Math.max(cpu, types.get(name).capacity().milliCpu());
      memory = Math.max(memory, types.get(name).capacity().memoryBytes());
    }
    return Resources.of(cpu, memory, 0);
  }

  static List<String> values(NodeClaimRequest claim, String key) {
    return claim.requirements().stream().filter(r -> r.key().equals(key) && r.operator().equals("In"))
        .findFirst().orElseThrow().values();
  }

  static Map<String, String> nodeLabels(InstanceTypeView type, OfferingView offering, NodeClaimRequest claim) {
    Map<String, String> labels = new TreeMap<>(type.labels());
    labels.putAll(claim.labels());
    labels.put(WellKnown.INSTANCE_TYPE_LABEL, type.name());
    labels.put(WellKnown.ARCH_LABEL, type.arch());
    labels.put(WellKnown.OS_LABEL, "linux");
    labels.put(WellKnown.ZONE_LABEL, offering.zone());
    labels.put(WellKnown.CAPACITY_TYPE_LABEL, offering.capacityType());
    labels.put(WellKnown.NODECLASS_LABEL, claim.nodeClassName());
    return labels;
  }

  // ---- Kubernetes' rules, written out independently of the planner ----

  static boolean schedulable(PodSpecView pod, Map<String, String> node) {
    for (var e : pod.nodeSelector().entrySet()) {
      if (!e.getValue().equals(node.get(e.getKey()))) {
        return false;
      }
    }
    if (pod.requiredAffinityTerms().isEmpty()) {
      return true;
    }
    return pod.requiredAffinityTerms().stream()
        .anyMatch(term -> !term.isEmpty() && term.stream().allMatch(r -> matches(r, node)));
  }

  static boolean matches(Requirement r, Map<String, String> node) {
    String v = node.get(r.key());
    return switch (r.operator()) {
      case "In" -> v != null && r.values().contains(v);
      case "NotIn" -> v == null || !r.values().contains(v);
      case "Exists" -> v != null;
      case "DoesNotExist" -> v == null;
      case "Gt" -> v != null && Long.parseLong(v) > Long.parseLong(r.values().getFirst());
      case "Lt" -> v != null && Long.parseLong(v) < Long.parseLong(r.values().getFirst());
      default -> false;
    };
  }

  static boolean tolerated(Taint taint, List<Toleration> tolerations) {
    if (taint.effect().equals("PreferNoSchedule")) {
      return true;
    }
    for (Toleration t : tolerations) {
      boolean effect = t.effect() == null || t.effect().isEmpty() || t.effect().equals(taint.effect());
      boolean key = t.key() == null || t.key().isEmpty() ? "Exists".equals(t.operator()) : t.key().equals(taint.key());
      boolean value = "Exists".equals(t.operator()) || String.valueOf(t.value()).equals(String.valueOf(taint.value()));
      if (effect && key && value) {
        return true;
      }
    }
    return false;
  }

  // ---- generator ----

  private static <T> T pick(Random random, List<T> from) {
    return from.get(random.nextInt(from.size()));
  }

  static ProvisioningSnapshot randomSnapshot(Random random) {
    List<InstanceTypeView> types = new ArrayList<>(catalogue());
    int extra = random.nextInt(6);
    for (int i = 0; i < extra; i++) {
      int vcpu = pick(random, List.of(2, 4, 8, 16));
      String arch = random.nextBoolean() ? "amd64" : "arm64";
      String family = pick(random, List.of("c", "m", "r")) + (5 + random.nextInt(3)) + (arch.equals("arm64") ? "g" : "a");
      List<OfferingView> offerings = new ArrayList<>();
      for (String zone : ZONES) {
        for (String ct : List.of(WellKnown.CAPACITY_ON_DEMAND, WellKnown.CAPACITY_SPOT)) {
          if (random.nextInt(3) > 0) {
            offerings.add(new OfferingView(zone, ct, 0.01 + random.nextDouble() * vcpu * 0.1, random.nextInt(5) > 0));
          }
        }
      }
      types.add(type(family + "." + i + "xlarge", arch, vcpu, (long) vcpu * pick(random, List.of(2, 4, 8)), 58, offerings));
    }

    List<NodePoolView> pools = new ArrayList<>();
    int poolCount = 1 + random.nextInt(3);
    for (int i = 0; i < poolCount; i++) {
      List<Requirement> reqs = new ArrayList<>();
      if (random.nextInt(3) == 0) {
        reqs.add(req(WellKnown.ARCH_LABEL, "In", random.nextBoolean() ? "amd64" : "arm64"));
      }
      if (random.nextInt(3) == 0) {
        reqs.add(req(WellKnown.CAPACITY_TYPE_LABEL, "In", pick(random, List.of("spot", "on-demand"))));
      }
      if (random.nextInt(4) == 0) {
        reqs.add(req(WellKnown.INSTANCE_CATEGORY_LABEL, "In", "m", "c"));
      }
      if (random.nextInt(4) == 0) {
        reqs.add(req(WellKnown.ZONE_LABEL, "NotIn", pick(random, ZONES)));
      }
      List<Taint> taints = random.nextInt(4) == 0 ? List.of(taint("dedicated", "NoSchedule")) : List.of();
      NodePoolView pool = pool("pool" + i, random.nextInt(3), reqs, taints);
      if (random.nextInt(3) == 0) {
        pool = withLabels(pool, Map.of("team", "a"));
      }
      if (random.nextInt(5) < 2) {
        long limit = 4_000L + random.nextInt(40) * 1000L;
        pool = withLimits(pool, NodePoolLimits.cpuAndMemory(limit, random.nextBoolean() ? null : limit * 4 * GIB / 1000),
            Resources.of(random.nextInt(4) * 1000L, random.nextInt(8) * GIB, 0));
      }
      pools.add(pool);
    }
    Map<String, List<InstanceTypeView>> byPool = new TreeMap<>();
    for (NodePoolView p : pools) {
      byPool.put(p.name(), types);
    }

    List<PodSpecView> pods = new ArrayList<>();
    int podCount = 1 + random.nextInt(40);
    for (int i = 0; i < podCount; i++) {
      PodSpecView pod = pod("p" + i, 50 + random.nextInt(4000), 32 + random.nextInt(12_000));
      Map<String, String> selector = new TreeMap<>();
      if (random.nextInt(4) == 0) {
        selector.put(WellKnown.ARCH_LABEL, random.nextBoolean() ? "amd64" : "arm64");
      }
      if (random.nextInt(6) == 0) {
        selector.put(WellKnown.ZONE_LABEL, pick(random, ZONES));
      }
      if (random.nextInt(8) == 0) {
        selector.put("team", random.nextInt(4) == 0 ? "b" : "a");
      }
      pod = withSelector(pod, selector);
      if (random.nextInt(3) == 0) {
        List<List<Requirement>> terms = new ArrayList<>();
        int termCount = 1 + random.nextInt(2);
        for (int t = 0; t < termCount; t++) {
          terms.add(List.of(randomRequirement(random)));
        }
        pod = withAffinity(pod, terms);
      }
      if (random.nextInt(3) == 0) {
        pod = withTolerations(pod, List.of(new Toleration("dedicated", "Exists", null, "NoSchedule")));
      }
      pods.add(pod);
    }
    return new ProvisioningSnapshot(pods, pools, byPool, List.of());
  }

  private static Requirement randomRequirement(Random random) {
    return switch (random.nextInt(7)) {
      case 0 -> req(WellKnown.ARCH_LABEL, "In", random.nextBoolean() ? "amd64" : "arm64");
      case 1 -> req(WellKnown.INSTANCE_TYPE_LABEL, "NotIn", "m5.large", "m6g.large");
      case 2 -> req("karpenter.k8s.aws/instance-gpu-count", random.nextBoolean() ? "Exists" : "DoesNotExist");
      case 3 -> req(WellKnown.INSTANCE_GENERATION_LABEL, "Gt", Integer.toString(4 + random.nextInt(3)));
      case 4 -> req(WellKnown.INSTANCE_CPU_LABEL, "Lt", pick(random, List.of("3", "5", "9", "17")));
      case 5 -> req(WellKnown.CAPACITY_TYPE_LABEL, "In", pick(random, List.of("spot", "on-demand")));
      default -> req(WellKnown.ZONE_LABEL, "In", pick(random, ZONES), pick(random, ZONES));
    };
  }
}

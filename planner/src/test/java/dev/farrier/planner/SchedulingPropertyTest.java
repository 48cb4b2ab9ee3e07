package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static dev.farrier.planner.SchedulingFixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.ExistingPlacement;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.PodRef;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.Taint;
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
 * Random workloads with existing nodes, in-flight claims, topology spread, pod (anti-)affinity, preferences and
 * volume zones, checked against invariants written out from Kubernetes' rules (not the planner's helpers). Seeded:
 * a failure names its seed.
 */
class SchedulingPropertyTest {
  private static final int SEEDS = 300;
  private static final String ZS = "zone-spread";
  private static final String HS = "host-spread";
  private static final String HA = "host-anti";
  private static final String ZA = "zone-affinity";

  @Test
  void randomWorkloadsKeepEveryInvariant() {
    int placed = 0;
    int onExisting = 0;
    int unschedulable = 0;
    for (int seed = 0; seed < SEEDS; seed++) {
      Random random = new Random(seed);
      ProvisioningSnapshot snapshot = decorate(ProvisioningPlannerPropertyTest.randomSnapshot(random), random);
      ProvisioningPlan plan = new ProvisioningPlanner().plan(snapshot, "seed-" + seed, ClaimNamer.standard());
      try {
        check(snapshot, plan);
      } catch (AssertionError e) {
        fail("seed " + seed + ": " + e.getMessage(), e);
      }
      placed += plan.claims().stream().mapToInt(c -> c.pods().size()).sum();
      onExisting += plan.onExisting().stream().mapToInt(e -> e.pods().size()).sum();
      unschedulable += plan.unschedulable().size();
    }
    // The generator must exercise every outcome, or the invariants prove little.
    assertTrue(placed > SEEDS * 5, "placed on claims " + placed);
    assertTrue(onExisting > SEEDS / 2, "placed on existing " + onExisting);
    assertTrue(unschedulable > SEEDS / 2, "unschedulable " + unschedulable);
  }

  /** Gives pods topology constraints, preferences and volumes, and adds existing nodes (some in flight, some cordoned). */
  static ProvisioningSnapshot decorate(ProvisioningSnapshot s, Random random) {
    List<PodSpecView> pods = new ArrayList<>();
    for (PodSpecView p : s.pendingPods()) {
      PodSpecView q = switch (random.nextInt(8)) {
        case 0 -> spread(labelled(p, Map.of("app", ZS)), new TopologySpread(WellKnown.ZONE_LABEL, 1 + random.nextInt(2), true,
            random.nextInt(4) == 0 ? 4 : null, app(ZS)));
        case 1 -> spread(labelled(p, Map.of("app", HS)), hostSpread(HS, 1 + random.nextInt(2)));
        case 2 -> affinity(labelled(p, Map.of("app", HA)), required(WellKnown.HOSTNAME_LABEL, HA, true));
        case 3 -> affinity(labelled(p, Map.of("app", ZA)), required(WellKnown.ZONE_LABEL, ZA, false));
        case 4 -> preferring(p, new PreferredNodeTerm(1 + random.nextInt(100), List.of(req(WellKnown.ZONE_LABEL, "In", pick(random, ZONES)))));
        case 5 -> volumes(p, req(WellKnown.ZONE_LABEL, "In", pick(random, ZONES)));
        default -> labelled(p, Map.of("app", "plain"));
      };
      pods.add(q);
    }
    List<ExistingNodeView> nodes = new ArrayList<>();
    int count = random.nextInt(4);
    for (int i = 0; i < count; i++) {
      NodePoolView pool = s.nodePools().get(random.nextInt(s.nodePools().size()));
      List<PodSpecView> running = new ArrayList<>();
      int runningCount = random.nextInt(3);
      for (int j = 0; j < runningCount; j++) {
        String app = pick(random, List.of(ZS, HS, HA, ZA, "plain"));
        PodSpecView r = labelled(pod("running-" + i + "-" + j, 100 + random.nextInt(500), 128), Map.of("app", app));
        if (app.equals(HA)) {
          r = affinity(r, required(WellKnown.HOSTNAME_LABEL, HA, true));
        }
        running.add(r);
      }
      ExistingNodeView n = node("node-" + i, pool.name(), pick(random, ZONES),
          cpuMem(2000 + random.nextInt(6) * 1000L, 4 + random.nextInt(12), 20 + random.nextInt(30)), running);
      if (random.nextInt(4) == 0) {
        n = withTaints(withPromised(n, cpuMem(500, 1, 0)), List.of(WellKnown.UNREGISTERED_TAINT), false);
      }
      if (random.nextInt(5) == 0) {
        n = cordoned(n);
      }
      if (random.nextInt(5) == 0) {
        n = withTaints(n, List.of(taint("dedicated", "NoSchedule")), true);
      }
      nodes.add(n);
    }
    return new ProvisioningSnapshot(pods, s.nodePools(), s.instanceTypesByNodePool(), s.daemonSetPods(), nodes, Map.of());
  }

  private static <T> T pick(Random random, List<T> from) {
    return from.get(random.nextInt(from.size()));
  }

  /** A placed pod's host and the labels of the node it lands on (for a claim: those all its offerings share). */
  private record Landing(String host, String zone, PodSpecView pod) {}

  private static void check(ProvisioningSnapshot snapshot, ProvisioningPlan plan) {
    Map<String, PodSpecView> pods = new HashMap<>();
    snapshot.pendingPods().forEach(p -> pods.put(p.pod().key(), p));
    Map<String, NodePoolView> pools = new HashMap<>();
    snapshot.nodePools().forEach(p -> pools.put(p.name(), p));
    Map<String, ExistingNodeView> nodes = new HashMap<>();
    snapshot.existingNodes().forEach(n -> nodes.put(n.name(), n));

    // Every pod is placed once or reported once.
    Set<String> seen = new HashSet<>();
    plan.claims().forEach(c -> c.pods().forEach(p -> assertTrue(seen.add(p.key()), "twice: " + p.key())));
    plan.onExisting().forEach(e -> e.pods().forEach(p -> assertTrue(seen.add(p.key()), "twice: " + p.key())));
    plan.unschedulable().forEach(u -> assertTrue(seen.add(u.pod().key()), "twice: " + u.pod().key()));
    assertEquals(pods.keySet(), seen);

    List<Landing> landings = new ArrayList<>();
    for (ExistingNodeView n : snapshot.existingNodes()) {
      for (PodSpecView p : n.pods()) {
        landings.add(new Landing(n.name(), n.labels().get(WellKnown.ZONE_LABEL), p));
      }
    }
    // Existing nodes: accepting, room, labels, taints.
    for (ExistingPlacement e : plan.onExisting()) {
      ExistingNodeView n = nodes.get(e.node());
      assertTrue(n.acceptsPods(), e.node() + " does not accept pods");
      Resources bound = Resources.ZERO;
      for (PodSpecView p : n.pods()) {
        bound = bound.plus(one(p));
      }
      // Pods promised to a claim may be among those bound: the larger of the two is in use.
      Resources promised = n.promised();
      Resources used = new Resources(Math.max(bound.milliCpu(), promised.milliCpu()),
          Math.max(bound.memoryBytes(), promised.memoryBytes()), Math.max(bound.ephemeralStorageBytes(),
          promised.ephemeralStorageBytes()), Math.max(bound.pods(), promised.pods()), bound.extended());
      for (PodRef ref : e.pods()) {
        PodSpecView p = pods.get(ref.key());
        used = used.plus(one(p));
        assertTrue(nodeConstraintsHold(p, n.labels()), ref.key() + " does not match " + n.labels());
        for (Taint t : n.taints()) {
          boolean transientTaint = !n.initialized() && t.key().equals(WellKnown.UNREGISTERED_TAINT_KEY);
          assertTrue(transientTaint || ProvisioningPlannerPropertyTest.tolerated(t, p.tolerations()), ref.key() + " on " + t);
        }
        landings.add(new Landing(n.name(), n.labels().get(WellKnown.ZONE_LABEL), p));
      }
      assertTrue(used.fitsIn(n.allocatable()), e.node() + " over allocatable: " + used);
    }
    // Claims: room on every listed type, every pod's node constraints on every offering, taints, limits.
    Map<String, Resources> counted = new TreeMap<>();
    for (NodeClaimRequest claim : plan.claims()) {
      NodePoolView pool = pools.get(claim.nodePool());
      Map<String, InstanceTypeView> types = new HashMap<>();
      snapshot.instanceTypesByNodePool().get(pool.name()).forEach(t -> types.put(t.name(), t));
      List<String> zones = ProvisioningPlannerPropertyTest.values(claim, WellKnown.ZONE_LABEL);
      List<String> capacityTypes = ProvisioningPlannerPropertyTest.values(claim, WellKnown.CAPACITY_TYPE_LABEL);
      for (String typeName : claim.instanceTypes()) {
        InstanceTypeView type = types.get(typeName);
        assertTrue(claim.requests().fitsIn(KubeletReserve.allocatable(type.capacity())), typeName + " too small");
        for (OfferingView o : type.offerings()) {
          if (o.available() && zones.contains(o.zone()) && capacityTypes.contains(o.capacityType())) {
            Map<String, String> labels = ProvisioningPlannerPropertyTest.nodeLabels(type, o, claim);
            for (Requirement r : pool.requirements()) {
              assertTrue(ProvisioningPlannerPropertyTest.matches(r, labels), "pool requirement " + r);
            }
            for (PodRef ref : claim.pods()) {
              assertTrue(nodeConstraintsHold(pods.get(ref.key()), labels), ref.key() + " does not match " + labels);
            }
          }
        }
      }
      for (PodRef ref : claim.pods()) {
        for (Taint t : pool.taints()) {
          assertTrue(ProvisioningPlannerPropertyTest.tolerated(t, pods.get(ref.key()).tolerations()), ref.key() + " on " + t);
        }
        landings.add(new Landing(claim.name(), zones.size() == 1 ? zones.getFirst() : null, pods.get(ref.key())));
      }
      counted.merge(pool.name(), ProvisioningPlannerPropertyTest.largest(claim, types), Resources::plus);
    }
    ProvisioningPlannerPropertyTest.assertLimitsHold(counted, pools);
    checkTopology(snapshot, plan, landings);
    checkLeftOutCouldNotFit(snapshot, plan, pods);
  }

  private static void checkTopology(ProvisioningSnapshot snapshot, ProvisioningPlan plan, List<Landing> landings) {
    Set<String> pending = new HashSet<>();
    snapshot.pendingPods().forEach(p -> pending.add(p.pod().key()));
    Map<String, Integer> hostAnti = new HashMap<>();
    Map<String, Integer> hostSpread = new HashMap<>();
    Set<String> affinityZones = new HashSet<>();
    boolean affinityExisted = false;
    for (Landing l : landings) {
      String app = l.pod().labels().get("app");
      boolean isPending = pending.contains(l.pod().pod().key());
      if (HA.equals(app)) {
        assertTrue(hostAnti.merge(l.host(), 1, Integer::sum) <= 1 || !isPending, "two " + HA + " pods on " + l.host());
      }
      if (HS.equals(app)) {
        hostSpread.merge(l.host(), 1, Integer::sum);
      }
      if (ZA.equals(app)) {
        if (!isPending) {
          affinityExisted = true;
        } else {
          assertTrue(l.zone() != null, l.pod().pod().key() + " with zone affinity on a claim not pinned to a zone");
          affinityZones.add(l.zone());
        }
      }
      if (ZS.equals(app) && isPending) {
        assertTrue(l.zone() != null, l.pod().pod().key() + " with zone spread on a claim not pinned to a zone");
      }
    }
    // Hostname spread: each placement needs (matching pods on the node) + 1 <= its maxSkew, so a node that took a new
    // pod ends with at most the largest maxSkew among the new pods it took.
    Map<String, Integer> allowed = new HashMap<>();
    for (Landing l : landings) {
      if (HS.equals(l.pod().labels().get("app")) && pending.contains(l.pod().pod().key())) {
        allowed.merge(l.host(), l.pod().topologySpread().getFirst().maxSkew(), Math::max);
      }
    }
    allowed.forEach((host, max) -> assertTrue(hostSpread.get(host) <= max,
        "hostname spread exceeded on " + host + ": " + hostSpread.get(host) + " > " + max));
    if (!affinityExisted) {
      assertTrue(affinityZones.size() <= 1, "self-selecting zone affinity spread over " + affinityZones);
    }
  }

  /**
   * Without limits (nothing in the batch competes for new capacity), a pod left out that depends on no other pod
   * (no spread, no pod affinity; hostname anti-affinity always holds on a new node) fits on no new claim on its own.
   */
  private static void checkLeftOutCouldNotFit(ProvisioningSnapshot snapshot, ProvisioningPlan plan, Map<String, PodSpecView> pods) {
    if (!snapshot.nodePools().stream().allMatch(p -> p.limits().equals(NodePoolLimits.NONE))) {
      return;
    }
    List<ExistingNodeView> closed = snapshot.existingNodes().stream().map(SchedulingFixtures::cordoned).toList();
    for (UnschedulablePod u : plan.unschedulable()) {
      PodSpecView p = pods.get(u.pod().key());
      String app = p.labels().get("app");
      if (ZS.equals(app) || HS.equals(app) || ZA.equals(app)) {
        continue;
      }
      ProvisioningSnapshot alone = new ProvisioningSnapshot(List.of(p), snapshot.nodePools(), snapshot.instanceTypesByNodePool(),
          List.of(), closed, Map.of());
      ProvisioningPlan planAlone = new ProvisioningPlanner().plan(alone, "alone", ClaimNamer.standard());
      assertEquals(0, planAlone.claims().size(), u.pod().key() + " fits alone but was left out: " + u.reason());
      for (NodePoolView pool : snapshot.nodePools()) {
        assertTrue(u.reason().contains("nodepool " + pool.name() + ": "), "reason names every pool: " + u.reason());
      }
    }
  }

  private static Resources one(PodSpecView p) {
    Resources r = p.requests();
    return new Resources(r.milliCpu(), r.memoryBytes(), r.ephemeralStorageBytes(), 1, r.extended());
  }

  /** nodeSelector, one required affinity term and every volume requirement (preferences are not required). */
  private static boolean nodeConstraintsHold(PodSpecView p, Map<String, String> labels) {
    if (!ProvisioningPlannerPropertyTest.schedulable(p, labels)) {
      return false;
    }
    return p.volumeRequirements().stream().allMatch(r -> ProvisioningPlannerPropertyTest.matches(r, labels));
  }
}

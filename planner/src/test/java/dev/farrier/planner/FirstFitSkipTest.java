package dev.farrier.planner;

import static dev.farrier.planner.SchedulingFixtures.affinity;
import static dev.farrier.planner.SchedulingFixtures.preferred;
import static dev.farrier.planner.SchedulingFixtures.required;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.PodRef;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The planner skips, per pod shape, the claims and nodes that refused it for good and those without room
 * ({@link PodShape.Attempt#draftsRefusedForGood}, {@link RoomIndex}); that must never change a plan. Random workloads
 * (pools with limits, taints, existing nodes, topology spread, pod affinity and anti-affinity, preferences, volume
 * zones) with many replicas per shape, so the skips matter, planned with and without them: the plans must be equal.
 */
class FirstFitSkipTest {
  private static final int SEEDS = 100;

  @Test
  void skippingRefusedTargetsGivesThePlainFirstFitsPlans() {
    int joined = 0;
    for (int seed = 0; seed < SEEDS; seed++) {
      Random random = new Random(seed);
      ProvisioningSnapshot snapshot = replicated(
          SchedulingPropertyTest.decorate(ProvisioningPlannerPropertyTest.randomSnapshot(random), random), random);
      for (boolean sizeByPrice : List.of(true, false)) {
        ProvisioningPlan plain = plan(snapshot, sizeByPrice, false);
        assertEquals(plain, plan(snapshot, sizeByPrice, true), "seed " + seed + ", sizeByPrice " + sizeByPrice);
        joined += plain.claims().stream().mapToInt(c -> c.pods().size() - 1).sum()
            + plain.onExisting().stream().mapToInt(e -> e.pods().size()).sum();
      }
    }
    // Pods joining claims and nodes already there are what a skip could get wrong: the workloads must have many.
    assertTrue(joined > SEEDS * 20, "pods joining a claim or node: " + joined);
  }

  private static ProvisioningPlan plan(ProvisioningSnapshot snapshot, boolean sizeByPrice, boolean skipRefused) {
    return new Scheduler(snapshot, sizeByPrice, skipRefused).run(snapshot.pendingPods(), "b", ClaimNamer.standard());
  }

  /**
   * Each pod as 1 to 10 replicas (same shape, own name), some with a hostname affinity (required or preferred) to the
   * pods of an app (the only rule whose refusal is not for good), which the decorated workloads do not have.
   */
  private static ProvisioningSnapshot replicated(ProvisioningSnapshot s, Random random) {
    List<PodSpecView> pods = new ArrayList<>();
    for (PodSpecView p : s.pendingPods()) {
      String app = List.of("plain", "host-spread", "zone-spread").get(random.nextInt(3));
      p = switch (random.nextInt(8)) {
        case 0 -> affinity(p, required(WellKnown.HOSTNAME_LABEL, app, false));
        case 1 -> affinity(p, preferred(WellKnown.HOSTNAME_LABEL, app, false, 1 + random.nextInt(100)));
        default -> p;
      };
      int replicas = 1 + random.nextInt(10);
      for (int r = 0; r < replicas; r++) {
        PodRef ref = new PodRef(p.pod().namespace(), p.pod().name() + "-" + r, p.pod().uid() + "-" + r);
        pods.add(new PodSpecView(ref, p.requests(), p.nodeSelector(), p.requiredAffinityTerms(), p.tolerations(),
            p.ownerKind(), p.doNotDisrupt(), p.labels(), p.preferredAffinity(), p.topologySpread(), p.podAffinity(),
            p.volumeRequirements()));
      }
    }
    return new ProvisioningSnapshot(pods, s.nodePools(), s.instanceTypesByNodePool(), s.daemonSetPods(),
        s.existingNodes(), s.kubeletByNodePool());
  }
}

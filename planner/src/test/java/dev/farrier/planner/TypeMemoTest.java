package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.catalogue;
import static dev.farrier.planner.Fixtures.pod;
import static dev.farrier.planner.Fixtures.pool;
import static dev.farrier.planner.Fixtures.req;
import static dev.farrier.planner.Fixtures.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TypeMemoTest {
  private static final KubeletSettings FEW_PODS = new KubeletSettings(10, null, null, null, (Long) null);

  @Test
  void plansOverTheSameTypeListAndKubeletShareTheirFacts() {
    var memo = new TypeMemo();
    var types = catalogue();
    assertSame(memo.of(types, KubeletSettings.DEFAULTS), memo.of(types, KubeletSettings.DEFAULTS));
    assertNotSame(memo.of(types, KubeletSettings.DEFAULTS), memo.of(types, FEW_PODS), "facts depend on the kubelet settings");
    assertNotSame(memo.of(types, KubeletSettings.DEFAULTS), memo.of(new ArrayList<>(types), KubeletSettings.DEFAULTS),
        "another list, however alike, is another plan's");
  }

  @Test
  void factsAreTheKubeletsAllocatable() {
    var memo = new TypeMemo();
    var types = catalogue();
    var fewPods = memo.of(types, FEW_PODS).facts.getFirst().allocatable();
    var defaults = memo.of(types, KubeletSettings.DEFAULTS).facts.getFirst().allocatable();
    assertEquals(10, fewPods.pods());
    assertNotEquals(defaults.pods(), fewPods.pods());
  }

  @Test
  void plansSharingAMemoAreThePlansMadeAlone() {
    var types = catalogue();
    var pools = List.of(pool("general"), pool("arm", 10, List.of(req(WellKnown.ARCH_LABEL, "In", "arm64")), List.of()));
    var memo = new TypeMemo();
    for (var pods : List.of(List.of(pod("a", 500, 512)), List.of(pod("b", 3000, 8192), pod("c", 250, 256)),
        List.of(pod("d", 1500, 30000)))) {
      // One type list for both pools (their requirements differ), as a round's view has per NodePool.
      var snapshot = snapshot(pods, pools, types);
      var alone = new ProvisioningPlanner().plan(snapshot, "b", ClaimNamer.standard());
      var shared = new ProvisioningPlanner().plan(snapshot, "b", ClaimNamer.standard(), memo);
      assertEquals(alone, shared);
    }
  }
}

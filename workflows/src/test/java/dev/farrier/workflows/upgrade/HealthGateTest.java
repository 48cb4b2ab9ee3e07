package dev.farrier.workflows.upgrade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.activities.HealthObservation;
import dev.farrier.workflows.activities.HealthObservation.NodeHealth;
import dev.farrier.workflows.activities.HealthObservation.PodHealth;
import dev.farrier.workflows.activities.HealthRequest;
import dev.farrier.model.WorkloadRef;
import dev.farrier.workflows.upgrade.HealthGate.Kind;
import dev.farrier.workflows.upgrade.HealthGate.Verdict;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The gate's decision on one observation, before and during the soak, for a batch and for one rolling slot. */
class HealthGateTest {
  private static final WorkloadRef WEB = new WorkloadRef("shop", "Deployment", "web");
  private static final HealthRequest BATCH = new HealthRequest("c", List.of("new-1"), List.of(WEB), false);
  private static final HealthRequest SLOT = new HealthRequest("c", List.of("new-1"), List.of(WEB), true);
  private static final NodeHealth NEW_READY = new NodeHealth("new-1", true, true);

  private static PodHealth pod(String name, String node, boolean ready, int restarts, String waiting) {
    return new PodHealth("shop/" + name, WEB, node, ready, restarts, waiting);
  }

  private static HealthObservation seen(NodeHealth node, PodHealth... pods) {
    return new HealthObservation(List.of(node), List.of(pods));
  }

  @Test
  void everyNewNodeAndMovedPodReadyPasses() {
    Verdict verdict = HealthGate.check(BATCH, seen(NEW_READY, pod("a", "new-1", true, 0, null), pod("b", "old", true, 0, null)), null, false);
    assertEquals(Kind.HEALTHY, verdict.kind(), verdict.detail());
    assertEquals("1 new node(s) and 2 moved pod(s) Ready", verdict.detail());
  }

  @Test
  void aNewNodeNotReadyOrMissingWaits() {
    Verdict notReady = HealthGate.check(BATCH, seen(new NodeHealth("new-1", true, false)), null, false);
    assertEquals(new Verdict(Kind.WAITING, "node new-1 not Ready"), notReady);
    Verdict missing = HealthGate.check(BATCH, seen(new NodeHealth("new-1", false, false)), null, false);
    assertEquals(new Verdict(Kind.WAITING, "node new-1 not found"), missing);
  }

  @Test
  void aBatchWaitsForEveryMovedPodWhileASlotWaitsOnlyForThoseOnItsNewNode() {
    HealthObservation elsewherePending = seen(NEW_READY, pod("a", "new-1", true, 0, null), pod("b", null, false, 0, null));
    assertEquals(new Verdict(Kind.WAITING, "pod shop/b not Ready (pending)"), HealthGate.check(BATCH, elsewherePending, null, false));
    assertEquals(Kind.HEALTHY, HealthGate.check(BATCH, elsewherePending, null, true).kind());
    HealthObservation hereNotReady = seen(NEW_READY, pod("a", "new-1", false, 0, null));
    assertEquals(new Verdict(Kind.WAITING, "pod shop/a not Ready"), HealthGate.check(SLOT, hereNotReady, null, true));
  }

  @Test
  void aCrashLoopAnywhereFailsAtOnceEvenForASlot() {
    Verdict verdict = HealthGate.check(SLOT, seen(NEW_READY, pod("a", "new-1", true, 0, null),
        pod("b", "other", false, 4, "CrashLoopBackOff")), null, true);
    assertEquals(new Verdict(Kind.FAILED, "pod shop/b of " + WEB + " is in CrashLoopBackOff (4 restarts) on node other"), verdict);
  }

  @Test
  void aWaitThatIsOnlySlowDoesNotFail() {
    Verdict verdict = HealthGate.check(BATCH, seen(NEW_READY, pod("a", "new-1", false, 0, "ContainerCreating")), null, false);
    assertEquals(Kind.WAITING, verdict.kind(), verdict.detail());
  }

  @Test
  void aRestartDuringTheSoakFailsButRestartsFromBeforeItDoNot() {
    HealthObservation now = seen(NEW_READY, pod("a", "new-1", true, 2, null));
    assertEquals(Kind.HEALTHY, HealthGate.check(BATCH, now, Map.of("shop/a", 2), false).kind(), "restarted before the soak");
    Verdict verdict = HealthGate.check(BATCH, now, Map.of("shop/a", 1), false);
    assertEquals(new Verdict(Kind.FAILED, "pod shop/a of " + WEB + " restarted during the soak (1 to 2 restarts) on node new-1"), verdict);
  }

  /**
   * A batch's gate saw every pod at the soak's start, so a pod it did not see then is new (a rescheduled one) and its
   * restarts are not counted. A slot's gate saw the pods elsewhere only if they were troubled: one it did not see had
   * no restart then.
   */
  @Test
  void aPodUnseenAtTheSoakStartCountsAsNoRestartsOnlyWhenOnlyTroubledPodsWereAskedFor() {
    HealthObservation now = seen(NEW_READY, pod("b", "other", true, 1, null));
    assertEquals(Kind.HEALTHY, HealthGate.check(BATCH, now, Map.of(), false).kind());
    Verdict verdict = HealthGate.check(SLOT, now, Map.of(), true);
    assertEquals(Kind.FAILED, verdict.kind(), verdict.detail());
    assertTrue(verdict.detail().contains("restarted during the soak (0 to 1 restarts)"), verdict.detail());
  }

  @Test
  void atMostThreeReasonsAreShownAndTheRestCounted() {
    Verdict verdict = HealthGate.check(BATCH, seen(new NodeHealth("new-1", true, false), pod("a", null, false, 0, null),
        pod("b", null, false, 0, null), pod("c", null, false, 0, null)), null, false);
    assertEquals("node new-1 not Ready, pod shop/a not Ready (pending), pod shop/b not Ready (pending) and 1 more", verdict.detail());
  }
}

package dev.farrier.workflows.replacement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.activities.DrainGroup;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.HeldPod;
import dev.farrier.workflows.activities.SurgeOutcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The drain's decisions without a Temporal environment. */
class DrainPolicyTest {
  private static final List<String> PODS = List.of("default/web-1", "default/web-2");

  @Test
  void pdbsHoldUntilTheGracePeriodEndsOrAnOperatorForces() {
    long end = DrainPolicy.graceEndsAt(60L, 1_000);
    assertEquals(61_000, end);
    assertFalse(DrainPolicy.bypassPdb(60_999, end, false));
    assertTrue(DrainPolicy.bypassPdb(61_000, end, false));
    assertTrue(DrainPolicy.bypassPdb(0, end, true));
    assertFalse(DrainPolicy.bypassPdb(Long.MAX_VALUE - 1, DrainPolicy.graceEndsAt(null, 0), false), "no grace period: never");
  }

  @Test
  void theWaitDoublesWhileNothingMovesAndStartsOverWhenPodsMove() {
    var first = DrainPolicy.nextWait(2, 2, 10, false, false, 0, Long.MAX_VALUE);
    assertEquals(2_000, first.millis());
    var second = DrainPolicy.nextWait(first.nextSeconds(), 2, 10, false, false, 0, Long.MAX_VALUE);
    assertEquals(4_000, second.millis());
    var capped = DrainPolicy.nextWait(16, 2, 10, false, false, 0, Long.MAX_VALUE);
    assertEquals(16_000, capped.millis());
    assertEquals(10, capped.nextSeconds());
    assertEquals(2_000, DrainPolicy.nextWait(10, 2, 10, true, false, 0, Long.MAX_VALUE).millis(), "pods moved");
    assertEquals(2_000, DrainPolicy.nextWait(10, 2, 10, false, true, 0, Long.MAX_VALUE).millis(), "node going away");
    assertEquals(500, DrainPolicy.nextWait(10, 2, 10, false, false, 9_500, 10_000).millis(), "never past the grace end");
    assertEquals(0, DrainPolicy.nextWait(10, 2, 10, false, false, 11_000, 10_000).millis());
  }

  @Test
  void theBlockerNamesEveryCauseWithThePdbFirstAndKeepsItsFirstTime() {
    var status = DrainStatus.of(List.of(), List.of("default/web-1", "default/web-2", "default/solo", "default/keep"), List.of(
        new HeldPod("default/web-1", HeldPod.Cause.PDB, "default/web-pdb"),
        new HeldPod("default/web-2", HeldPod.Cause.PDB, "default/web-pdb"),
        new HeldPod("default/solo", HeldPod.Cause.NO_CONTROLLER, null),
        new HeldPod("default/keep", HeldPod.Cause.DO_NOT_DISRUPT, null)));

    Blocker first = DrainPolicy.blocker(status, 1_000, null);
    Blocker again = DrainPolicy.blocker(status, 9_000, first);

    assertEquals(Blocker.Kind.PDB, first.kind());
    assertEquals("PodDisruptionBudget default/web-pdb; karpenter.sh/do-not-disrupt on default/keep; "
        + "no controller (an eviction would delete it for good) for default/solo", first.summary());
    assertEquals(List.of("default/web-pdb"), first.budgets());
    assertEquals(List.of("default/web-1", "default/web-2", "default/solo", "default/keep"), first.pods());
    assertEquals(1_000, again.sinceMillis(), "the same blocker keeps the time it was first seen");
    Blocker other = DrainPolicy.blocker(DrainStatus.of(List.of(), PODS, List.of(
        new HeldPod("default/web-1", HeldPod.Cause.EVICTION_FAILED, "HTTP 500"))), 9_000, first);
    assertEquals(9_000, other.sinceMillis(), "a different blocker starts its own clock");
    assertEquals("eviction failing: default/web-1: HTTP 500", other.summary());
  }

  @Test
  void aHeldGroupNamesItselfAndThePodsOfLaterGroupsItHoldsBack() {
    var status = DrainStatus.of(List.of(), List.of("default/web-1", "kube-system/coredns-1", "kube-system/logger-1"),
        List.of(new HeldPod("default/web-1", HeldPod.Cause.PDB, "default/web-pdb")), DrainGroup.NON_CRITICAL,
        List.of("kube-system/coredns-1", "kube-system/logger-1"));

    Blocker blocker = DrainPolicy.blocker(status, 0, null);

    assertEquals(Blocker.Kind.PDB, blocker.kind());
    assertEquals("non-critical pods (drain group 1 of 4), holding back 2 pod(s) of later groups: "
        + "PodDisruptionBudget default/web-pdb", blocker.summary());
    assertEquals(List.of("default/web-1"), blocker.pods(), "the held pods; the later groups' pods only wait");
    assertNull(DrainPolicy.blocker(DrainStatus.of(List.of(), status.remaining(), List.of(), DrainGroup.NON_CRITICAL,
        status.deferred()), 0, null), "a group still terminating holds nothing up");
    assertEquals("PodDisruptionBudget kube-system/dns-pdb", DrainPolicy.blocker(DrainStatus.of(List.of(),
        List.of("kube-system/coredns-1"), List.of(new HeldPod("kube-system/coredns-1", HeldPod.Cause.PDB,
            "kube-system/dns-pdb")), DrainGroup.CRITICAL, List.of()), 0, null).summary(), "the last group left holds nothing back");
  }

  @Test
  void aSurgeIsNamedFirstAndTheGroupItHoldsBackAndTheOtherHeldPodsStayNamed() {
    var status = DrainStatus.of(List.of(), List.of("default/web-1", "default/db-1", "kube-system/coredns-1"),
        List.of(new HeldPod("default/web-1", HeldPod.Cause.PDB, "default/web-pdb"),
            new HeldPod("default/db-1", HeldPod.Cause.DO_NOT_DISRUPT, null)),
        DrainGroup.NON_CRITICAL, List.of("kube-system/coredns-1"), List.of("default/web-1"));
    var surging = new SurgeOutcome("default/web-1", "default/web", SurgeOutcome.Result.SURGING, null);

    Blocker blocker = DrainPolicy.blocker(status, List.of(surging), 0, null);

    assertEquals(Blocker.Kind.SURGE, blocker.kind());
    assertEquals("non-critical pods (drain group 1 of 4), holding back 1 pod(s) of later groups: surging deployment "
        + "default/web: waiting for its new pod to be Ready; karpenter.sh/do-not-disrupt on default/db-1", blocker.summary());
    assertEquals(List.of("default/web-1", "default/db-1"), blocker.pods());
    assertEquals(List.of("default/web-pdb"), blocker.budgets());
    var alone = DrainStatus.of(List.of(), List.of("default/web-1", "kube-system/coredns-1"),
        List.of(new HeldPod("default/web-1", HeldPod.Cause.PDB, "default/web-pdb")), DrainGroup.NON_CRITICAL,
        List.of("kube-system/coredns-1"), List.of("default/web-1"));
    assertEquals("non-critical pods (drain group 1 of 4), holding back 1 pod(s) of later groups: surging deployment "
        + "default/web: waiting for its new pod to be Ready", DrainPolicy.blocker(alone, List.of(surging), 0, null).summary(),
        "the group's words stay with the surge alone too");
    var notSurged = new SurgeOutcome("default/web-1", null, SurgeOutcome.Result.NOT_APPLICABLE, "the pod is gone");
    assertEquals(DrainPolicy.blocker(alone, 0, null), DrainPolicy.blocker(alone, List.of(notSurged), 0, null),
        "an answer that is no surge leaves the blocker as without surges");
  }

  @Test
  void nothingBlocksADrainedNodeOrPodsStillTerminating() {
    assertNull(DrainPolicy.blocker(DrainStatus.of(PODS, List.of(), List.of()), 0, null));
    assertNull(DrainPolicy.blocker(DrainStatus.of(List.of(), PODS, List.of()), 0, null), "left pods no one holds are terminating");
  }

  @Test
  void aPassFromBeforeHeldPodsStillNamesItsPdb() {
    Blocker blocker = DrainPolicy.blocker(new DrainStatus(List.of(), PODS, List.of("default/web-pdb"), List.of()), 0, null);
    assertEquals("PodDisruptionBudget default/web-pdb", blocker.summary());
    assertEquals(PODS, blocker.pods());
  }

  @Test
  void manyPodsAreCountedAndTheSummaryStaysShort() {
    var held = java.util.stream.IntStream.range(0, 200)
        .mapToObj(i -> new HeldPod("default/pinned-" + i, HeldPod.Cause.DO_NOT_DISRUPT, null)).toList();
    Blocker blocker = DrainPolicy.blocker(DrainStatus.of(List.of(), held.stream().map(HeldPod::pod).toList(), held), 0, null);
    assertEquals("karpenter.sh/do-not-disrupt on default/pinned-0, default/pinned-1, default/pinned-2 and 197 more", blocker.summary());
    assertTrue(DrainPolicy.truncate("x".repeat(500)).length() <= DrainPolicy.SUMMARY_LIMIT);
  }

  @Test
  void aPassFromBeforeHeldPodsNamesItsDoNotDisruptPodsAndFailuresToo() {
    Blocker blocker = DrainPolicy.blocker(new DrainStatus(List.of(), PODS, List.of(), List.of("default/web-1"),
        List.of("default/web-2: HTTP 500: two budgets"), List.of()), 0, null);
    assertEquals(Blocker.Kind.DO_NOT_DISRUPT, blocker.kind());
    assertEquals("karpenter.sh/do-not-disrupt on default/web-1; eviction failing: default/web-2: HTTP 500: two budgets",
        blocker.summary());
    assertEquals(PODS, blocker.pods());
    Blocker bare = DrainPolicy.blocker(new DrainStatus(List.of(), PODS, List.of(), List.of(), List.of("default/web-2"), List.of()), 0, null);
    assertEquals("eviction failing: default/web-2", bare.summary());
  }

  @Test
  void threePodsAreNamedAndTheFourthIsCounted() {
    var three = PODS.stream().map(p -> new HeldPod(p, HeldPod.Cause.NO_CONTROLLER, null)).collect(java.util.stream.Collectors.toList());
    three.add(new HeldPod("default/web-3", HeldPod.Cause.NO_CONTROLLER, null));
    assertEquals("no controller (an eviction would delete it for good) for default/web-1, default/web-2, default/web-3",
        DrainPolicy.blocker(DrainStatus.of(List.of(), PODS, three), 0, null).summary());
    three.add(new HeldPod("default/web-4", HeldPod.Cause.NO_CONTROLLER, null));
    assertTrue(DrainPolicy.blocker(DrainStatus.of(List.of(), PODS, three), 0, null).summary().endsWith("default/web-3 and 1 more"));
  }

  @Test
  void aSummaryOfExactlyTheLimitIsKeptWhole() {
    String exact = "x".repeat(DrainPolicy.SUMMARY_LIMIT);
    assertEquals(exact, DrainPolicy.truncate(exact));
    assertEquals("x".repeat(DrainPolicy.SUMMARY_LIMIT - 1) + "…", DrainPolicy.truncate(exact + "y"));
  }

  @Test
  void phasesTravelAsTheirLabels() {
    for (ReplacementPhase phase : ReplacementPhase.values()) {
      assertEquals(phase, ReplacementPhase.of(phase.label()));
    }
    assertEquals("AwaitingRetry", ReplacementPhase.AWAITING_RETRY.toString());
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> ReplacementPhase.of("Sleeping"));
    assertTrue(ReplacementPhase.TERMINATING.pastPointOfNoReturn());
    assertFalse(ReplacementPhase.DRAINING.pastPointOfNoReturn());
    assertTrue(ReplacementPhase.ABORTED.finished());
    assertFalse(ReplacementPhase.AWAITING_RETRY.finished());
  }
}

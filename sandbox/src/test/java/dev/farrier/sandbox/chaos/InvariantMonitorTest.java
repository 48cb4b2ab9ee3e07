package dev.farrier.sandbox.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.WellKnown;
import dev.farrier.sandbox.chaos.Observation.Claim;
import dev.farrier.sandbox.chaos.Observation.CloudInstance;
import dev.farrier.sandbox.chaos.Violation.Invariant;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Each invariant seen to fire on a deliberately broken fleet, and to stay quiet on the healthy fleet beside it. */
class InvariantMonitorTest {
  private static final String CLUSTER = "chaos";
  private static final Instant T0 = Instant.parse("2026-11-30T12:00:00Z");
  private static final Duration GRACE = Duration.ofMinutes(5);

  private final InvariantMonitor monitor = new InvariantMonitor(CLUSTER, Set.of("i-foreign"), GRACE);

  @Test
  void aHealthyFleetBreaksNothing() {
    var healthy = observation(T0, List.of(farriers("i-1", "a", "running"), farriers("i-2", "b", "pending"),
        farriers("i-3", "c", "terminated"), farriers("i-4", "a", "shutting-down"), foreign("i-foreign", "running")), claims("a", "b"));
    assertEquals(List.of(), monitor.observe(healthy));
    assertEquals(List.of(), monitor.settled(healthy));
    assertEquals(2, monitor.checks());
  }

  @Test
  void twoLiveInstancesForOneClaimAreAViolationNamingBoth() {
    var broken = observation(T0, List.of(farriers("i-1", "a", "running"), farriers("i-2", "a", "pending"),
        foreign("i-foreign", "running")), claims("a"));
    var found = monitor.observe(broken);
    assertEquals(1, found.size(), found.toString());
    assertEquals(Invariant.ONE_INSTANCE_PER_CLAIM, found.getFirst().invariant());
    assertEquals("a", found.getFirst().subject());
    assertTrue(found.getFirst().detail().contains("i-1") && found.getFirst().detail().contains("i-2"), found.toString());
  }

  @Test
  void anInstanceWithoutItsClaimIsAViolationOnlyOnceTheGraceHasPassedSinceItWasFirstSeenSo() {
    var instances = List.of(farriers("i-1", "gone", "running"), foreign("i-foreign", "running"));
    assertEquals(List.of(), monitor.observe(observation(T0, instances, claims())));
    assertEquals(List.of(), monitor.observe(observation(T0.plus(GRACE), instances, claims())), "at the grace: not yet");
    var found = monitor.observe(observation(T0.plus(GRACE).plusSeconds(1), instances, claims()));
    assertEquals(1, found.size(), found.toString());
    assertEquals(Invariant.NO_ORPHAN_PAST_GRACE, found.getFirst().invariant());
    assertEquals("i-1", found.getFirst().subject());
  }

  @Test
  void anOrphanWhoseClaimAppearsStartsItsGraceAfreshWhenItIsOrphanedAgain() {
    var orphan = List.of(farriers("i-1", "late", "running"), foreign("i-foreign", "running"));
    monitor.observe(observation(T0, orphan, claims()));
    assertEquals(List.of(), monitor.observe(observation(T0.plusSeconds(10), orphan, claims("late"))), "its claim is there");
    assertEquals(List.of(), monitor.observe(observation(T0.plus(GRACE).plusSeconds(11), orphan, claims())),
        "orphaned again since the last observation only");
    assertEquals(1, monitor.observe(observation(T0.plus(GRACE.multipliedBy(2)).plusSeconds(12), orphan, claims())).size());
  }

  @Test
  void aForeignInstanceStoppedTerminatedOrGoneIsAViolationAndNeverCountsAsFarriers() {
    for (String state : List.of("stopped", "shutting-down", "terminated")) {
      var found = new InvariantMonitor(CLUSTER, Set.of("i-foreign"), GRACE)
          .observe(observation(T0, List.of(foreign("i-foreign", state)), claims()));
      assertEquals(1, found.size(), state + ": " + found);
      assertEquals(Invariant.FOREIGN_UNTOUCHED, found.getFirst().invariant());
    }
    var gone = monitor.observe(observation(T0, List.of(), claims()));
    assertEquals(List.of(new Violation(T0, Invariant.FOREIGN_UNTOUCHED, "i-foreign", "gone from the account")), gone);
    // A foreign instance carrying Farrier's tags (a copy of a launch template, say) is still not Farrier's: no orphan.
    var lookalike = new InvariantMonitor(CLUSTER, Set.of("i-lookalike"), Duration.ZERO);
    lookalike.observe(observation(T0, List.of(farriers("i-lookalike", "x", "running")), claims()));
    assertEquals(List.of(), lookalike.observe(observation(T0.plusSeconds(60), List.of(farriers("i-lookalike", "x", "running")), claims())));
  }

  @Test
  void instancesOfAnotherClusterOrOwnerAreNotFarriers() {
    var other = new CloudInstance("i-9", "running", Map.of(WellKnown.TAG_OWNER, "farrier", WellKnown.TAG_CLUSTER, "other",
        WellKnown.TAG_NODECLAIM, "a"));
    var karpenters = new CloudInstance("i-8", "running", Map.of(WellKnown.TAG_OWNER, "karpenter", WellKnown.TAG_CLUSTER, CLUSTER,
        WellKnown.TAG_NODECLAIM, "a"));
    var instances = List.of(farriers("i-1", "a", "running"), other, karpenters, foreign("i-foreign", "running"));
    assertEquals(List.of(), monitor.observe(observation(T0, instances, claims("a"))));
    assertEquals(List.of(), monitor.observe(observation(T0.plus(GRACE).plusSeconds(1), instances, claims("a"))));
  }

  @Test
  void aFleetThatHasNotSettledNamesEachPendingPodAndRunningWorkflow() {
    var unsettled = new Observation(T0, List.of(foreign("i-foreign", "running")), List.of(), List.of("default/web-1"),
        List.of("disrupt/default-abc12", "upgrade/default/al2023@v20251103"));
    var found = monitor.settled(unsettled);
    assertEquals(List.of("default/web-1", "disrupt/default-abc12", "upgrade/default/al2023@v20251103"),
        found.stream().map(Violation::subject).toList());
    assertTrue(found.stream().allMatch(v -> v.invariant() == Invariant.SETTLED), found.toString());
    assertEquals(List.of(), monitor.observe(unsettled), "pending pods are no violation while the faults go on");
  }

  private static CloudInstance farriers(String id, String claim, String state) {
    return new CloudInstance(id, state, Map.of(WellKnown.TAG_OWNER, "farrier", WellKnown.TAG_CLUSTER, CLUSTER,
        WellKnown.TAG_NODEPOOL, "default", WellKnown.TAG_NODECLAIM, claim));
  }

  private static CloudInstance foreign(String id, String state) {
    return new CloudInstance(id, state, Map.of("team", "someone-else"));
  }

  private static List<Claim> claims(String... names) {
    return java.util.Arrays.stream(names).map(n -> new Claim(n, false)).toList();
  }

  private static Observation observation(Instant at, List<CloudInstance> instances, List<Claim> claims) {
    return new Observation(at, instances, claims, List.of(), List.of());
  }
}

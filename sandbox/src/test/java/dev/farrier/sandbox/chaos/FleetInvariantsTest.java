package dev.farrier.sandbox.chaos;

import static dev.farrier.sandbox.chaos.PodInvariantsTest.claim;
import static dev.farrier.sandbox.chaos.PodInvariantsTest.instance;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.chaos.Observation.Claim;
import dev.farrier.sandbox.chaos.Observation.CloudInstance;
import dev.farrier.sandbox.chaos.Observation.Replacement;
import dev.farrier.sandbox.chaos.Violation.Invariant;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 43's invariants 2, 3 (replacements), 6 and 7 (on target), each seen to fire on a broken fleet and to stay
 * quiet on the near miss beside it.
 */
class FleetInvariantsTest {
  private static final Instant T0 = Instant.parse("2026-11-30T12:00:00Z");
  private static final Duration WINDOW = Duration.ofSeconds(30);

  private final InvariantMonitor monitor = new InvariantMonitor("chaos", Set.of(), Duration.ofMinutes(5), Map.of("roll", 2), 1, WINDOW, 4);

  @Test
  void moreVoluntaryReplacementsOfANodePoolThanItsBudgetIsAViolationOnceSeenTwiceInARow() {
    assertEquals(List.of(), monitor.observe(replacing(T0, r("a", "roll", "drifted"), r("b", "roll", "underutilized"), r("c", "roll", "empty"))),
        "one observation may list a replacement that just closed");
    var found = monitor.observe(replacing(T0.plusSeconds(1), r("a", "roll", "drifted"), r("b", "roll", "underutilized"), r("c", "roll", "empty")));
    assertEquals(List.of(Invariant.BUDGET), found.stream().map(Violation::invariant).toList(), found.toString());
    assertEquals("roll", found.getFirst().subject());
    assertTrue(found.getFirst().detail().contains("[a, b, c]"), found.toString());
  }

  @Test
  void involuntaryReplacementsAndNodePoolsWithoutABudgetAreNotCounted() {
    assertEquals(List.of(), monitor.observe(replacing(T0, r("a", "roll", "drifted"), r("b", "roll", "rebalance"),
        r("c", "roll", "SpotInterruption"), r("d", "roll", "expired"), r("e", "roll", "unhealthy"),
        r("f", "other", "drifted"), r("g", "other", "drifted"), r("h", "other", "drifted"))));
  }

  @Test
  void twoRunningReplacementsForOneNodeClaimAreAViolationTwoRunsOfOneContinuedAsNewAreNot() {
    assertEquals(List.of(), monitor.observe(replacing(T0, new Replacement("disrupt/a", "run-1", "a", "node-a", "other", "drifted"),
        new Replacement("disrupt/a", "run-2", "a", "node-a", "other", "drifted"))), "one replacement continued as new");
    var twice = replacing(T0.plusSeconds(1), new Replacement("disrupt/a", "run-1", "a", "node-a", "other", "drifted"),
        new Replacement("upgrade/roll/disrupt/a", "run-3", "a", "node-a", "other", "drifted"));
    var found = monitor.observe(twice);
    assertEquals(List.of(Invariant.ONE_REPLACEMENT_PER_NODE), found.stream().map(Violation::invariant).toList(), found.toString());
  }

  @Test
  void aSecondCompletedReplacementOfOneNodeClaimIsAViolationTheSameRunListedAgainIsNot() {
    var first = new Replacement("disrupt/a", "run-1", "a", "node-a", "roll", "drifted");
    assertEquals(List.of(), monitor.observe(completed(T0, first)));
    assertEquals(List.of(), monitor.observe(completed(T0.plusSeconds(30), first, new Replacement("disrupt/b", "run-9", "b", "node-b", "roll", "drifted"))),
        "the overlapping query lists run-1 again");
    var found = monitor.observe(completed(T0.plusSeconds(60), new Replacement("disrupt/a", "run-2", "a", "node-a", "roll", "drifted")));
    assertEquals(List.of(Invariant.ONE_REPLACEMENT_PER_NODE), found.stream().map(Violation::invariant).toList(), found.toString());
    assertEquals("a", found.getFirst().subject());
    assertEquals(List.of(), monitor.observe(completed(T0.plusSeconds(90), first, new Replacement("disrupt/a", "run-2", "a", "node-a", "roll", "drifted"))),
        "both runs listed again: reported once");
  }

  @Test
  void claimsLaunchingBeyondPendingPodsReplacementsAndMarginForLongerThanTheWindowAreARunaway() {
    var launching = List.of(launching("x"), launching("y"), launching("z"));
    assertEquals(List.of(), monitor.observe(fleet(T0, launching, List.of("default/p1"))));
    assertEquals(List.of(), monitor.observe(fleet(T0.plus(WINDOW), launching, List.of("default/p1"))), "at the window: not yet");
    var found = monitor.observe(fleet(T0.plus(WINDOW).plusSeconds(1), launching, List.of("default/p1")));
    assertEquals(List.of(Invariant.RUNAWAY), found.stream().map(Violation::invariant).toList(), found.toString());
  }

  @Test
  void claimsLaunchedForPodsThatWentAwayAreJudgedByWhatThePodsNeededWithinTheWindow() {
    var launching = List.of(launching("x"), launching("y"), launching("z"));
    assertEquals(List.of(), monitor.observe(fleet(T0, launching, List.of("a/1", "a/2", "a/3"))));
    assertEquals(List.of(), monitor.observe(fleet(T0.plusSeconds(10), launching, List.of())), "the Deployment scaled down");
    assertEquals(List.of(), monitor.observe(fleet(T0.plus(WINDOW).plusSeconds(5), launching, List.of())), "the need is a window old");
    assertEquals(List.of(), monitor.observe(fleet(T0.plus(WINDOW).plusSeconds(11), launching, List.of())),
        "a window after the scale-down, but the excess began only when the need left the window");
    var found = monitor.observe(fleet(T0.plus(WINDOW.multipliedBy(2)).plusSeconds(6), launching, List.of()));
    assertEquals(List.of(Invariant.RUNAWAY), found.stream().map(Violation::invariant).toList(), "a window after the need went: " + found);
  }

  @Test
  void aMomentsExcessThatEndsBeforeTheWindowStartsItAfreshAndRegisteredOrDeletingClaimsAreNotLaunching() {
    var launching = List.of(launching("x"), launching("y"), launching("z"));
    monitor.observe(fleet(T0, launching, List.of()));
    var caughtUp = List.of(launching("x"), claim("y"), new Claim("z", true, "roll", null, null, false));
    assertEquals(List.of(), monitor.observe(fleet(T0.plusSeconds(10), caughtUp, List.of())));
    monitor.observe(fleet(T0.plusSeconds(20), launching, List.of()));
    assertEquals(List.of(), monitor.observe(fleet(T0.plusSeconds(20).plus(WINDOW), launching, List.of())));
    assertEquals(List.of(), monitor.observe(fleet(T0.plus(WINDOW.multipliedBy(5)), launching, List.of("a/1", "a/2"))), "needed: 2 + margin 1");
  }

  @Test
  void moreLiveInstancesThanTheCeilingIsARunawayAtOnce() {
    List<CloudInstance> five = List.of(instance("a", "running"), instance("b", "running"), instance("c", "pending"),
        instance("d", "running"), instance("e", "running"));
    var found = monitor.observe(new Observation(T0, five, List.of(claim("a"), claim("b"), claim("c"), claim("d"), claim("e")), List.of(), List.of()));
    assertEquals(List.of(Invariant.RUNAWAY), found.stream().map(Violation::invariant).toList(), found.toString());
    assertEquals(List.of(), monitor.observe(new Observation(T0, five.subList(0, 4), List.of(claim("a"), claim("b"), claim("c"), claim("d")),
        List.of(), List.of())));
  }

  @Test
  void everyInvariantIsCountedForTheReport() {
    monitor.observe(new Observation(T0, List.of(), List.of(), List.of(), List.of()));
    monitor.settled(new Observation(T0, List.of(), List.of(), List.of(), List.of()));
    var counted = monitor.checksByInvariant();
    assertEquals(Set.of(Invariant.values()), counted.keySet());
    assertEquals(2, counted.get(Invariant.BUDGET));
    assertEquals(2, counted.get(Invariant.RUNAWAY));
    assertEquals(1, counted.get(Invariant.SETTLED));
    assertEquals(2, monitor.checks());
  }

  private static Replacement r(String claim, String pool, String reason) {
    return new Replacement("disrupt/" + claim, "run-" + claim, claim, "node-" + claim, pool, reason);
  }

  private static Claim launching(String name) {
    return new Claim(name, false, "roll", null, "ami-1", false);
  }

  private static Observation replacing(Instant at, Replacement... running) {
    return new Observation(at, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(running), List.of());
  }

  private static Observation completed(Instant at, Replacement... done) {
    return new Observation(at, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(done));
  }

  private static Observation fleet(Instant at, List<Claim> claims, List<String> pending) {
    return new Observation(at, List.of(), claims, pending, List.of());
  }
}

package dev.farrier.activities.nodepool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * NodeRegistrationHealthy as Karpenter v1.14.1 computes it: the last four launches of a pool, False once failures fill
 * half of the four slots, True again once fewer do and a node registers. Each case feeds outcomes (R registered, L
 * failed to launch, T registration timed out) to a pool whose condition is written back after each, and expects the
 * condition's status after the last ("-" none written yet).
 */
class RegistrationHealthTest {
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

  private static NodePool pool(long generation, Long classGeneration, Condition condition) {
    NodePool pool = new NodePool();
    pool.setMetadata(new ObjectMetaBuilder().withName("default").withUid("uid-default").withGeneration(generation).build());
    pool.setStatus(new NodePoolStatus(null, null, condition == null ? List.of() : List.of(condition), classGeneration));
    return pool;
  }

  /** The condition as the status writer stores it: stamped with the pool's generation. */
  private static Condition stored(Condition c, long generation) {
    return new Condition(c.type(), c.status(), generation, c.lastTransitionTime(), c.reason(), c.message());
  }

  static Stream<Arguments> sequences() {
    return Stream.of(
        Arguments.of("one registration", "R", "True"),
        Arguments.of("one failure is not enough", "T", "-"),
        Arguments.of("two failures of two", "TT", "False"),
        Arguments.of("two failures after two registrations", "RRTT", "False"),
        Arguments.of("one failure among four", "RTRR", "True"),
        Arguments.of("False stays while failures fill half the slots", "TTRR", "False"),
        Arguments.of("True once a third registration pushes a failure out", "TTRRR", "True"),
        Arguments.of("a launch failure counts as a registration failure does", "LT", "False"),
        Arguments.of("True again after recovering, then False again", "TTRRRTT", "False"));
  }

  @ParameterizedTest(name = "{0}: {1} -> {2}")
  @MethodSource("sequences")
  void theConditionFollowsTheLastFourLaunches(String name, String outcomes, String expected) {
    RegistrationHealth health = new RegistrationHealth();
    Condition condition = null;
    for (int i = 0; i < outcomes.length(); i++) {
      NodePool pool = pool(1, 1L, condition);
      String claim = "default-" + i;
      Condition changed = switch (outcomes.charAt(i)) {
        case 'R' -> health.registered(pool, claim, NOW);
        case 'L' -> health.failed(pool, claim, false, "LaunchFailed", "no such security group", NOW);
        default -> health.failed(pool, claim, true, "RegistrationTimeout", "node did not register within 900s", NOW);
      };
      if (changed != null) {
        condition = stored(changed, 1);
      }
    }
    assertEquals(expected, condition == null ? "-" : condition.status());
  }

  @Test
  void theReasonSaysWhetherTheNodeLaunchedAsUpstreamDoes() {
    RegistrationHealth health = new RegistrationHealth();
    assertNull(health.failed(pool(1, 1L, null), "a", true, "RegistrationTimeout", "m", NOW));
    Condition registration = health.failed(pool(1, 1L, null), "b", true, "RegistrationTimeout", "m", NOW);
    assertEquals(List.of("False", "RegistrationFailed", "Failed to register node"),
        List.of(registration.status(), registration.reason(), registration.message()));

    RegistrationHealth other = new RegistrationHealth();
    other.failed(pool(1, 1L, null), "a", false, "LaunchFailed", "subnet gone", NOW);
    Condition launch = other.failed(pool(1, 1L, null), "b", false, "LaunchFailed", "subnet gone", NOW);
    assertEquals(List.of("LaunchFailed", "subnet gone"), List.of(launch.reason(), launch.message()));
  }

  @Test
  void aRetriedActivityCountsItsClaimOnce() {
    RegistrationHealth health = new RegistrationHealth();
    assertNull(health.failed(pool(1, 1L, null), "a", true, "RegistrationTimeout", "m", NOW));
    assertNull(health.failed(pool(1, 1L, null), "a", true, "RegistrationTimeout", "m", NOW), "the same claim again");
  }

  @Test
  void aStoredConditionSeedsTheOutcomesAfterARestartUnlessThePoolChangedSince() {
    Condition wasFalse = stored(Condition.of(RegistrationHealth.CONDITION, Condition.FALSE, "RegistrationFailed", "x", NOW), 3);
    assertNull(new RegistrationHealth().registered(pool(3, 1L, wasFalse), "a", NOW), "two failures and one success: still False");
    Condition healed = new RegistrationHealth().registered(pool(4, 1L, wasFalse), "a", NOW);
    assertEquals("True", healed.status(), "the pool was edited since: its old outcomes do not count");
  }

  @Test
  void thePoolsOrItsClassesChangeMakesItUnknownAgain() {
    EC2NodeClass nodeClass = new EC2NodeClass();
    nodeClass.setMetadata(new ObjectMetaBuilder().withName("default").withGeneration(2L).build());
    Condition healthy = stored(Condition.of(RegistrationHealth.CONDITION, Condition.TRUE, RegistrationHealth.CONDITION, "", NOW), 5);
    List<String> reset = new ArrayList<>();
    for (NodePool pool : List.of(pool(5, 2L, null), pool(5, 2L, healthy), pool(6, 2L, healthy), pool(5, 1L, healthy))) {
      Condition c = RegistrationHealth.resetIfStale(pool, nodeClass, NOW);
      reset.add(c == null ? "-" : c.status() + " " + c.reason());
    }
    assertEquals(List.of("Unknown AwaitingReconciliation", "-", "Unknown AwaitingReconciliation", "Unknown AwaitingReconciliation"),
        reset, "new pool, unchanged, pool edited, class edited");
    assertNull(RegistrationHealth.resetIfStale(pool(5, null, null), null, NOW), "no class: left alone");
  }
}

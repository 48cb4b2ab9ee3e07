package dev.farrier.activities.rollout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.activities.ClosedReplacement;
import dev.farrier.workflows.activities.FollowRequest;
import dev.farrier.workflows.activities.RolloutActivities;
import dev.farrier.model.ReconcilerSettings;
import dev.farrier.model.ReplacementResult;
import io.temporal.activity.ActivityOptions;
import io.temporal.testing.TestActivityEnvironment;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The follow of a rolling rollout's carried replacements: it waits while they all run, returns those that have closed
 * as soon as one has, and returns none once its wait is over.
 */
class AwaitClosedTest {
  private static List<ClosedReplacement> awaitClosed(Function<String, Optional<ClosedReplacement>> closed, FollowRequest request) {
    var env = TestActivityEnvironment.newInstance();
    try {
      env.registerActivitiesImplementations(new RolloutActivitiesImpl(null, null, null, null, id -> false, ReconcilerSettings.DEFAULTS,
          closed));
      RolloutActivities activities = env.newActivityStub(RolloutActivities.class, ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofMinutes(1)).setHeartbeatTimeout(Duration.ofSeconds(10)).build());
      return activities.awaitClosed(request);
    } finally {
      env.close();
    }
  }

  @Test
  void waitsWhileAllRunAndReturnsTheOnesThatClosed() {
    var asked = new ConcurrentHashMap<String, AtomicInteger>();
    var done = new ReplacementResult("b", "Done", "b-new", "node-b-new", 2);
    List<ClosedReplacement> closed = awaitClosed(claim -> {
      int times = asked.computeIfAbsent(claim, c -> new AtomicInteger()).incrementAndGet();
      return claim.equals("b") && times >= 3 ? Optional.of(ClosedReplacement.completed("b", done)) : Optional.empty();
    }, new FollowRequest("c", List.of("a", "b"), 30));

    assertEquals(List.of(ClosedReplacement.completed("b", done)), closed);
    assertEquals(3, asked.get("a").get(), "every claim asked each round until one closed");
  }

  @Test
  void returnsNoneOnceItsWaitIsOver() {
    assertTrue(awaitClosed(claim -> Optional.empty(), new FollowRequest("c", List.of("a"), 0)).isEmpty());
  }
}

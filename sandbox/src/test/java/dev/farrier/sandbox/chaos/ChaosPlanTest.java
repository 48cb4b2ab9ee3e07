package dev.farrier.sandbox.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.chaos.ChaosPlan.Kind;
import dev.farrier.sandbox.chaos.ChaosPlan.Step;
import dev.farrier.sandbox.chaos.ChaosPlan.Timeline;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChaosPlanTest {
  @Test
  void theSameSeedPlaysTheSameStepsAndAnotherSeedOthers() {
    assertEquals(ChaosPlan.of(42, Duration.ofMinutes(60)), ChaosPlan.of(42, Duration.ofMinutes(60)));
    assertNotEquals(ChaosPlan.of(42, Duration.ofMinutes(60)).steps(), ChaosPlan.of(43, Duration.ofMinutes(60)).steps());
  }

  @Test
  void anHourKillsAWorkerAtLeastTwentyTimesLeaderAndOtherAlike() {
    var counts = ChaosPlan.of(1, Duration.ofMinutes(60)).counts();
    int kills = counts.get(Kind.KILL_LEADER) + counts.get(Kind.KILL_OTHER);
    assertTrue(kills >= 20, "kill -9s of a worker: " + kills);
    assertTrue(Math.abs(counts.get(Kind.KILL_LEADER) - counts.get(Kind.KILL_OTHER)) <= 1, counts.toString());
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 5, 60, 180})
  void everyKindIsPlayedWithinTheSoakAndATimelinesStepsNeverOverlap(int minutes) {
    Duration duration = Duration.ofMinutes(minutes);
    ChaosPlan plan = ChaosPlan.of(minutes, duration);
    assertEquals(EnumSet.allOf(Kind.class), EnumSet.copyOf(plan.counts().keySet()), "every kind at least once");
    assertTrue(plan.lastFaultEnds().compareTo(duration) <= 0, "faults end within the soak: " + plan.lastFaultEnds());
    for (Timeline timeline : List.of(Timeline.PROCESS, Timeline.CLOUD)) {
      List<Step> steps = plan.steps().stream().filter(s -> s.kind().timeline() == timeline).toList();
      for (int i = 1; i < steps.size(); i++) {
        Step before = steps.get(i - 1);
        assertTrue(before.at().plus(before.hold()).compareTo(steps.get(i).at()) < 0, before + " overlaps " + steps.get(i));
      }
    }
    assertTrue(plan.steps().stream().filter(s -> s.kind() == Kind.KWOK_STALL).allMatch(s -> s.hold().compareTo(Duration.ofSeconds(40)) < 0),
        "kwok never stalls long enough for its nodes to be marked NotReady");
  }

  @Test
  void eachRolloutIsFollowedByAnEditOfItsNodePool() {
    var steps = ChaosPlan.of(9, Duration.ofMinutes(30)).steps();
    var rollouts = steps.stream().filter(s -> s.kind() == Kind.ROLLOUT).toList();
    assertEquals(2, rollouts.size());
    for (Step rollout : rollouts) {
      assertTrue(steps.stream().anyMatch(s -> s.kind() == Kind.EDIT_ROLLED_POOL && s.at().compareTo(rollout.at()) > 0
          && s.at().minus(rollout.at()).compareTo(Duration.ofSeconds(30)) < 0), "an edit within 30 s of " + rollout);
    }
  }

  @Test
  void aSoakTooShortForEveryFaultIsRefused() {
    var refused = assertThrows(IllegalArgumentException.class, () -> ChaosPlan.of(1, Duration.ofSeconds(90)));
    assertTrue(refused.getMessage().contains("2 minutes"), refused.getMessage());
  }
}

package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.chaos.ChaosPlan;
import dev.farrier.sandbox.chaos.ChaosSoak;
import dev.farrier.sandbox.chaos.Violation;
import java.nio.file.Files;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The chaos soak's short variant in {@code make test}: seed 1 for five minutes on a fleet of about 18 nodes, every
 * fault kind played at least once (worker kills, a rolling restart, Temporal killed and hung, the API server killed and
 * hung, kwok stalled, EC2 errors, slow calls and lost capacity) beside the churn, and the monitor checking every second.
 * It passes only with no violation and a fleet settled after the last fault; the hour-long seeds are {@code make chaos}.
 */
class ChaosSoakIT {
  @Test
  void fiveMinutesOfSeededChurnAndFaultsBreakNoPromiseAndTheFleetSettles() throws Exception {
    var dir = E2e.runDir("chaos-soak");
    var result = ChaosSoak.run(ChaosSoak.Options.SHORT, dir, System.out);
    String report = Files.readString(result.report());

    assertEquals(List.of(), result.violations(), report);
    assertTrue(result.settled(), "settled after the last fault: " + result.unsettled() + "\n" + report);
    var playedFaults = result.played().stream().filter(p -> p.step().kind().fault() && !p.failed()).map(p -> p.step().kind())
        .collect(Collectors.toCollection(() -> EnumSet.noneOf(ChaosPlan.Kind.class)));
    var everyFault = EnumSet.allOf(ChaosPlan.Kind.class).stream().filter(ChaosPlan.Kind::fault)
        .collect(Collectors.toCollection(() -> EnumSet.noneOf(ChaosPlan.Kind.class)));
    assertEquals(everyFault, playedFaults, "every fault kind injected without a failure of the harness\n" + report);
    for (var invariant : Violation.Invariant.values()) {
      assertTrue(result.checks().get(invariant.name()) > 0, invariant + " checked at least once (pod disruptions judged too)\n" + report);
    }
  }
}

package dev.farrier.sandbox.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeWatchTest {
  private static final Instant T = Instant.parse("2026-11-28T03:00:00Z");

  @Test
  void countsOnlyNodesRegisteredSinceTheRollBeganThatBecameReady() {
    var nodes = List.of(
        new NodeWatch.Seen(T.minusSeconds(60), T.minusSeconds(30)), // the fleet before the roll
        new NodeWatch.Seen(T, T.plusSeconds(21)),                    // registered as the roll began
        new NodeWatch.Seen(T.plusSeconds(5), T.plusSeconds(9)),
        new NodeWatch.Seen(T.plusSeconds(7), null));                 // not Ready yet

    assertEquals(List.of(4_000L, 21_000L), NodeWatch.readyWaits(nodes, T));
  }
}

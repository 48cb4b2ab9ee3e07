package dev.farrier.sandbox.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.catalog.InstanceTypeCatalog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The side-by-side comparison at a small size, so the harness cannot rot: both controllers, each on its own stack,
 * provision the mix, consolidate it after the scale-down and roll a small fleet on a template change, and the table
 * has both columns. The two stacks run side by side, which halves the test's time; the figures, which that load
 * changes, are {@code make bench-peer}'s (docs/benchmarks/peer-system.md), one controller at a time, not asserted here.
 */
class PeerSystemIT {
  @Test
  void bothControllersRunTheSameWorkloadsAndTheTableComparesThem() throws Exception {
    var catalogue = KwokCatalogue.of(InstanceTypeCatalog.load(InstanceTypeCatalog.DEFAULT_REGION));
    // Settled = unchanged for 55 s, the shortest window consolidateAfter 10 s allows. After the scale-down the harness
    // waits for the controller's first move for the whole phase: in .ci/runs Karpenter made it more than 55 s (70016fe)
    // and more than 110 s after it (its 10 s disruption loop and 15 s validation, on a loaded machine).
    var sizes = new PeerRun.Sizes(20, 2, 1, Duration.ofSeconds(10), "100%", Duration.ofSeconds(55), Duration.ofMinutes(5));
    var log = new ByteArrayOutputStream();
    List<PeerRun.Result> results;
    try (var out = new PrintStream(log, true, StandardCharsets.UTF_8)) {
      results = PeerSystemBenchmark.runBoth(Path.of("target", "e2e", "peer-system").toAbsolutePath(), catalogue, sizes, 500,
          List.of("farrier", "karpenter"), out, true);
    }
    String seen = log.toString(StandardCharsets.UTF_8);
    System.out.println(seen);
    assertEquals(2, results.size(), seen);
    assertTrue(results.get(0).controller().startsWith("Farrier") && results.get(1).controller().startsWith("Karpenter v1."), seen);
    for (var r : results) {
      String who = r.controller() + "\n" + seen;
      assertEquals(20, r.scaleOut().toRunningSeconds().count(), who);
      assertEquals(20, r.series().toRunningSeconds().size(), "each pod's wait, for the figure: " + who);
      assertTrue(r.series().fleetPrice().stream().anyMatch(p -> p[1] > 0), "the fleet's price sampled through the run: " + who);
      assertTrue(r.scaleOut().fleet().nodes() > 0 && r.scaleOut().fleet().unpriced() == 0, "every node priced: " + r.scaleOut().fleet() + who);
      assertTrue(r.scaleOut().settledSeconds().isPresent(), who);
      assertTrue(r.scaleOut().cost().controller().peakRssMiB() > 20, "the controller's own process is measured: " + r.scaleOut().cost() + who);
      // Karpenter's first consolidation move comes when its own loops get to it: on a loaded 2-core machine it has made
      // none within the phase's 5 minutes (.ci/runs of 25abe48 and 1e186c4; the harness reported it unsettled in one,
      // settled unchanged in the other). The peer is measured, not tested; Farrier, the controller under test, must
      // have consolidated.
      boolean peerMadeNoMove = r.controller().startsWith("Karpenter") && r.consolidation().podsDisrupted() == 0
          && r.consolidation().after().equals(r.consolidation().before());
      if (!peerMadeNoMove) {
        assertTrue(r.consolidation().settledSeconds().isPresent(), who);
        assertTrue(r.consolidation().after().dollarsPerHour() < r.consolidation().before().dollarsPerHour(),
            "30% of the pods cost less once consolidated: " + r.consolidation() + who);
      }
      var drift = r.drift().orElseThrow();
      assertTrue(drift.makespanSeconds().isPresent(), "the template change rolled the fleet: " + drift + who);
      assertTrue(drift.podsDisrupted() >= 2 && drift.claimsLaunched() >= 2, "every node replaced, each pod moved: " + drift + who);
      assertTrue(drift.peakUnavailable() <= 1, "the PDB's maxUnavailable 10% of 2 pods is 1, though the budget allows both nodes: " + drift + who);
    }
    assertTrue(results.get(0).scaleOut().cost().server().isPresent() && results.get(1).scaleOut().cost().server().isEmpty(),
        "Farrier's Temporal is measured on a line of its own");
    var table = String.join("\n", PeerSystemReport.table(results));
    System.out.println(table);
    assertTrue(table.startsWith("| figure | Farrier") && table.contains("| Karpenter v1."), table);
  }
}

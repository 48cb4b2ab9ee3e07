package dev.farrier.sandbox.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.catalog.InstanceTypeCatalog;
import dev.farrier.sandbox.bench.Charts;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the side-by-side harness computes: settled detection, $/h, process figures, the workload's shares, the figures. */
class PeerBenchPiecesTest {
  private static final Instant T0 = Instant.parse("2026-11-29T06:00:00Z");

  private static Settling.Snapshot at(int second, Set<String> nodes, Set<String> claims, long waiting, boolean disrupting) {
    return new Settling.Snapshot(T0.plusSeconds(second), nodes, claims, waiting, disrupting);
  }

  @Test
  void aFleetSettlesAtItsLastChangeOnceQuietForTheWindow() {
    var settling = new Settling();
    settling.observe(at(0, Set.of("a"), Set.of("x"), 0, false));
    settling.observe(at(10, Set.of("a", "b"), Set.of("x", "y"), 0, false));
    settling.observe(at(69, Set.of("a", "b"), Set.of("x", "y"), 0, false));
    assertEquals(Optional.empty(), settling.settled(Duration.ofSeconds(60), Duration.ofSeconds(60)), "59 s quiet is not 60");
    settling.observe(at(70, Set.of("a", "b"), Set.of("x", "y"), 0, false));
    assertEquals(Optional.of(T0.plusSeconds(10)), settling.settled(Duration.ofSeconds(60), Duration.ofSeconds(60)));
  }

  @Test
  void aFleetAwaitingTheControllersFirstMoveSettlesAfterTheLongerWaitUnlessItMoved() {
    var untouched = new Settling();
    untouched.observe(at(0, Set.of("a", "b"), Set.of("x", "y"), 0, false));
    untouched.observe(at(100, Set.of("a", "b"), Set.of("x", "y"), 0, false));
    assertEquals(Optional.of(T0), untouched.settled(Duration.ofSeconds(60), Duration.ofSeconds(60)), "without a move expected, 60 s of nothing is settled");
    assertEquals(Optional.empty(), untouched.settled(Duration.ofSeconds(60), Duration.ofSeconds(120)), "100 s is not twice the window");
    untouched.observe(at(120, Set.of("a", "b"), Set.of("x", "y"), 0, false));
    assertEquals(Optional.of(T0), untouched.settled(Duration.ofSeconds(60), Duration.ofSeconds(120)), "120 s is");
    assertEquals(Optional.empty(), untouched.settled(Duration.ofSeconds(60), Duration.ofMinutes(5)),
        "after a scale-down the move is awaited for the whole phase");

    var moved = new Settling();
    moved.observe(at(0, Set.of("a", "b"), Set.of("x", "y"), 0, false));
    moved.observe(at(40, Set.of("a", "b"), Set.of("x", "y"), 0, true));
    moved.observe(at(50, Set.of("a"), Set.of("x"), 0, false));
    moved.observe(at(109, Set.of("a"), Set.of("x"), 0, false));
    assertEquals(Optional.empty(), moved.settled(Duration.ofSeconds(60), Duration.ofSeconds(120)), "59 s since the last move");
    moved.observe(at(110, Set.of("a"), Set.of("x"), 0, false));
    assertEquals(Optional.of(T0.plusSeconds(50)), moved.settled(Duration.ofSeconds(60), Duration.ofSeconds(120)), "the window after its last move");

    // The phase's own pods starting (waiting, then a node, then quiet) are not the controller's move on a quiet fleet.
    var setup = new Settling();
    setup.observe(at(0, Set.of("a"), Set.of("x"), 2, false));
    setup.observe(at(10, Set.of("a", "b"), Set.of("x", "y"), 2, false));
    setup.observe(at(20, Set.of("a", "b"), Set.of("x", "y"), 0, false));
    setup.observe(at(100, Set.of("a", "b"), Set.of("x", "y"), 0, false));
    assertEquals(Optional.empty(), setup.settled(Duration.ofSeconds(60), Duration.ofSeconds(120)), "80 s since it was first quiet is not 120");
    setup.observe(at(140, Set.of("a", "b"), Set.of("x", "y"), 0, false));
    assertEquals(Optional.of(T0.plusSeconds(20)), setup.settled(Duration.ofSeconds(60), Duration.ofSeconds(120)));
  }

  @Test
  void waitingPodsAClaimWithoutANodeOrADisruptionKeepItUnsettled() {
    for (var busy : List.of(at(100, Set.of("a"), Set.of("x"), 3, false), at(100, Set.of("a"), Set.of("x", "y"), 0, false),
        at(100, Set.of("a"), Set.of("x"), 0, true))) {
      var settling = new Settling();
      settling.observe(at(0, busy.nodes(), busy.claims(), busy.waitingPods(), busy.disrupting()));
      settling.observe(busy);
      assertEquals(Optional.empty(), settling.settled(Duration.ofSeconds(10), Duration.ofSeconds(10)), busy.toString());
    }
    var settling = new Settling();
    settling.observe(at(0, Set.of("a"), Set.of("x"), 2, false));
    settling.observe(at(50, Set.of("a"), Set.of("x"), 0, false));
    settling.observe(at(60, Set.of("a"), Set.of("x"), 0, false));
    assertEquals(Optional.of(T0.plusSeconds(50)), settling.settled(Duration.ofSeconds(10), Duration.ofSeconds(10)), "quiet since the last pod ran");
  }

  @Test
  void aSettleWindowShorterThanConsolidateAfterWithRoomToDecideIsRefused() {
    var refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> new PeerRun.Sizes(10, 0, 1, Duration.ofSeconds(30), "10%", Duration.ofSeconds(74), Duration.ofMinutes(1)));
    assertTrue(refused.getMessage().contains("consolidateAfter 30s"), refused.getMessage());
    assertEquals(75, new PeerRun.Sizes(10, 0, 1, Duration.ofSeconds(30), "10%", Duration.ofSeconds(75), Duration.ofMinutes(1)).settleWindow().toSeconds());
  }

  @Test
  void aFleetIsPricedFromTheCatalogueByItsNodesLabels() {
    var catalogue = KwokCatalogue.of(InstanceTypeCatalog.load(InstanceTypeCatalog.DEFAULT_REGION));
    double spot = catalogue.price("m5.large", "us-east-1b", "spot").orElseThrow();
    double onDemand = catalogue.price("c6a.xlarge", "us-east-1a", "on-demand").orElseThrow();
    var price = FleetPrice.of(List.of(node("m5.large", "us-east-1b", "spot"), node("c6a.xlarge", "us-east-1a", "on-demand"),
        node("t2.nano", "us-east-1a", "on-demand")), catalogue);
    assertEquals(3, price.nodes());
    assertEquals(spot + onDemand, price.dollarsPerHour(), 1e-9);
    assertEquals(1, price.unpriced(), "a type outside the catalogue is counted, not guessed");
    assertEquals(1, price.spot());
  }

  private static Node node(String type, String zone, String capacityType) {
    return new NodeBuilder().withNewMetadata().withName(type + "-" + zone).withLabels(Map.of("node.kubernetes.io/instance-type", type,
        "topology.kubernetes.io/zone", zone, "karpenter.sh/capacity-type", capacityType)).endMetadata().build();
  }

  @Test
  void cpuTicksAreReadPastACommandNameWithSpacesAndParentheses() {
    String stat = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 1234 567 0 0 20 0 40 0 100 0 0";
    assertEquals(1234 + 567, ProcessMeter.parseTicks(stat));
  }

  @Test
  void thisJvmsOwnMemoryAndCpuAreMeasured() {
    var meter = new ProcessMeter(ProcessHandle.current().pid());
    long sum = 0;
    for (int i = 0; i < 20_000_000; i++) {
      sum += Long.numberOfTrailingZeros(i * 31L + sum);
    }
    var use = meter.use();
    assertTrue(use.peakRssMiB() > 10 && use.lastRssMiB() > 10, use + " " + sum);
    assertTrue(use.cpuSeconds() >= 0, use.toString());
  }

  @Test
  void theMixHasItsSharesTheSameRequestsForASeedAndKeepsEveryPartWhenScaledDown() {
    var parts = PeerWorkload.mix(7);
    assertEquals(parts, PeerWorkload.mix(7));
    var replicas = PeerWorkload.replicas(parts, 1000);
    assertEquals(1000, replicas.values().stream().mapToInt(Integer::intValue).sum());
    assertEquals(300, replicas.get("web"));
    assertEquals(20, replicas.get("ha"));
    var scaled = PeerWorkload.scaled(PeerWorkload.replicas(parts, 50), 0.3);
    assertEquals(1, scaled.get("ha"), "ceil(1 x 0.3): no part disappears");
    assertEquals(5, scaled.get("web"));

    var ha = PeerWorkload.deployment(parts.get(5), 20);
    assertEquals("kubernetes.io/hostname", ha.getSpec().getTemplate().getSpec().getAffinity().getPodAntiAffinity()
        .getRequiredDuringSchedulingIgnoredDuringExecution().getFirst().getTopologyKey());
    var web = PeerWorkload.deployment(parts.getFirst(), 300);
    assertEquals("topology.kubernetes.io/zone", web.getSpec().getTemplate().getSpec().getTopologySpreadConstraints().getFirst().getTopologyKey());
    assertEquals(Map.of("karpenter.sh/capacity-type", "on-demand"), web.getSpec().getTemplate().getSpec().getNodeSelector());
    var batch = PeerWorkload.deployment(parts.get(2), 10);
    assertTrue(batch.getSpec().getTemplate().getSpec().getNodeSelector().isEmpty(), "spot-tolerant: no capacity-type constraint");
  }

  /** The table: both columns, an unsettled phase as such, and the Temporal line over all three phases. */
  @Test
  void theTableHasAColumnPerControllerAndTheServerLineCoversEveryPhase() {
    var pods = dev.farrier.sandbox.bench.Percentiles.of(List.of(1.0, 2.0, 3.0));
    var fleet = new FleetPrice(3, 0.5, 0, 1);
    java.util.function.Function<Double, PeerRun.Cost> withServer = peak -> new PeerRun.Cost(new ProcessMeter.Use(1, 100, 90),
        Optional.of(new ProcessMeter.Use(2, peak, peak)));
    var farrier = new PeerRun.Result("Farrier", new PeerRun.ScaleOut(3, pods, 3.5, 3, fleet, Optional.of(10.0), withServer.apply(200.0)),
        new PeerRun.Consolidation(fleet, fleet, Optional.empty(), 1, 0, withServer.apply(210.0)),
        Optional.of(new PeerRun.Drift(2, Optional.of(15.0), 2, 0, 2, withServer.apply(330.0))));
    var karpenter = new PeerRun.Result("Karpenter", new PeerRun.ScaleOut(3, pods, 2.5, 3, fleet, Optional.of(8.0),
        new PeerRun.Cost(new ProcessMeter.Use(1, 90, 90), Optional.empty())),
        new PeerRun.Consolidation(fleet, fleet, Optional.of(30.0), 1, 0, new PeerRun.Cost(new ProcessMeter.Use(1, 90, 90), Optional.empty())),
        Optional.empty());
    List<String> table = PeerSystemReport.table(List.of(farrier, karpenter));

    assertEquals("| figure | Farrier | Karpenter |", table.getFirst());
    String server = table.stream().filter(l -> l.startsWith("| server beside the API server")).findFirst().orElseThrow();
    assertTrue(server.endsWith("| 6.0 / 330 | none |"), "CPU of the three phases, the peak of all three: " + server);
    assertTrue(table.stream().anyMatch(l -> l.startsWith("| makespan s | 15.0 | -")), String.join("\n", table));
  }

  /** The figures: one line per controller in each, from its own series, and Markdown that shows both files. */
  @Test
  void theFiguresPlotEachControllersOwnSeries(@TempDir Path dir) throws Exception {
    var pods = dev.farrier.sandbox.bench.Percentiles.of(List.of(1.0, 2.0, 3.0));
    var fleet = new FleetPrice(3, 0.5, 0, 1);
    var cost = new PeerRun.Cost(new ProcessMeter.Use(1, 90, 90), Optional.empty());
    BiFunction<String, PeerRun.Series, PeerRun.Result> result = (name, series) -> new PeerRun.Result(name,
        new PeerRun.ScaleOut(3, pods, 3.5, 3, fleet, Optional.of(10.0), cost),
        new PeerRun.Consolidation(fleet, fleet, Optional.empty(), 1, 0, cost), Optional.empty(), series);
    var results = List.of(
        result.apply("Farrier", new PeerRun.Series(List.of(3.0, 1.0, 2.0), List.of(new double[] {0, 0}, new double[] {5, 2.5}))),
        result.apply("Karpenter", new PeerRun.Series(List.of(4.0), List.of(new double[] {0, 0}, new double[] {5, 1.5}, new double[] {10, 1.0}))));

    var waits = PeerSystemReport.waits(results);
    assertEquals(List.of("Farrier", "Karpenter"), waits.stream().map(Charts.Line::name).toList());
    assertEquals(List.of(1.0, 2.0, 3.0), waits.getFirst().points().stream().map(p -> p[0]).toList(), "the pods' own waits, sorted");
    assertEquals(List.of(4.0), waits.get(1).points().stream().map(p -> p[0]).toList());
    var prices = PeerSystemReport.prices(results);
    assertEquals(List.of(2.5, 1.0), List.of(prices.get(0).points().get(1)[1], prices.get(1).points().get(2)[1]));

    List<String> markdown = PeerSystemReport.figures(results, dir.resolve("figures"), 20);
    assertEquals(List.of("![20 pods: created to Running](figures/peer-system-20-running.png)",
        "![20 pods: the fleet's price](figures/peer-system-20-price.png)"), markdown);
    assertTrue(Files.size(dir.resolve("figures/peer-system-20-running.png")) > 0);
    assertTrue(Files.size(dir.resolve("figures/peer-system-20-price.png")) > 0);
  }
}

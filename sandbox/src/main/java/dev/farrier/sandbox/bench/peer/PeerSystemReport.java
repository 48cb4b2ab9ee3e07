package dev.farrier.sandbox.bench.peer;

import dev.farrier.sandbox.bench.Charts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The side-by-side table (one column per controller, one row per figure, the same workload in each column) and its
 * figures.
 */
final class PeerSystemReport {
  private PeerSystemReport() {}

  /** One row: a figure's name and how to read it from a result. */
  private record Row(String name, Function<PeerRun.Result, String> value) {}

  static List<String> table(List<PeerRun.Result> results) {
    List<Row> rows = new ArrayList<>();
    rows.add(new Row("**scale-out**: pods", r -> Integer.toString(r.scaleOut().pods())));
    rows.add(new Row("created to Running p50 / p99 / max s", r -> String.format(Locale.ROOT, "%.1f / %.1f / %.1f",
        r.scaleOut().toRunningSeconds().median(), r.scaleOut().toRunningSeconds().p99(), r.scaleOut().toRunningSeconds().max())));
    rows.add(new Row("all Running after s", r -> String.format(Locale.ROOT, "%.1f", r.scaleOut().allRunningSeconds())));
    rows.add(new Row("NodeClaims launched", r -> Long.toString(r.scaleOut().claimsLaunched())));
    rows.add(new Row("settled: nodes (spot) and $/h", r -> fleet(r.scaleOut().fleet())));
    rows.add(new Row("settled after s", r -> seconds(r.scaleOut().settledSeconds())));
    rows.add(new Row("controller CPU s / peak RSS MiB", r -> cost(r.scaleOut().cost().controller())));
    rows.add(new Row("**consolidation** (mix scaled to 30%): nodes (spot) and $/h when settled", r -> fleet(r.consolidation().after())));
    rows.add(new Row("settled after s", r -> seconds(r.consolidation().settledSeconds())));
    rows.add(new Row("pods disrupted (evicted, not scaled away)", r -> Long.toString(r.consolidation().podsDisrupted())));
    rows.add(new Row("NodeClaims launched while consolidating", r -> Long.toString(r.consolidation().claimsLaunched())));
    rows.add(new Row("controller CPU s / peak RSS MiB / RSS settled MiB", r -> costSettled(r.consolidation().cost().controller())));
    rows.add(new Row("**drift** (template change): nodes", r -> r.drift().map(d -> Integer.toString(d.nodes())).orElse("-")));
    rows.add(new Row("makespan s", r -> r.drift().map(d -> seconds(d.makespanSeconds())).orElse("-")));
    rows.add(new Row("pods disrupted", r -> r.drift().map(d -> Long.toString(d.podsDisrupted())).orElse("-")));
    rows.add(new Row("peak pods unavailable (the PDB allows 10%)", r -> r.drift().map(d -> Long.toString(d.peakUnavailable())).orElse("-")));
    rows.add(new Row("NodeClaims launched", r -> r.drift().map(d -> Long.toString(d.claimsLaunched())).orElse("-")));
    rows.add(new Row("controller CPU s / peak RSS MiB", r -> r.drift().map(d -> cost(d.cost().controller())).orElse("-")));
    rows.add(new Row("server beside the API server (Temporal), CPU s / peak RSS MiB, scale-out + consolidation + drift",
        r -> r.scaleOut().cost().server().map(s -> String.format(Locale.ROOT, "%.1f / %.0f",
            s.cpuSeconds() + r.consolidation().cost().server().orElseThrow().cpuSeconds()
                + r.drift().map(d -> d.cost().server().orElseThrow().cpuSeconds()).orElse(0.0),
            Math.max(Math.max(s.peakRssMiB(), r.consolidation().cost().server().orElseThrow().peakRssMiB()),
                r.drift().map(d -> d.cost().server().orElseThrow().peakRssMiB()).orElse(0.0)))).orElse("none")));
    List<String> lines = new ArrayList<>();
    lines.add("| figure | " + String.join(" | ", results.stream().map(PeerRun.Result::controller).toList()) + " |");
    lines.add("|---|" + "---:|".repeat(results.size()));
    for (Row row : rows) {
      lines.add("| " + row.name() + " | " + String.join(" | ", results.stream().map(row.value()).toList()) + " |");
    }
    return lines;
  }

  /**
   * The figures of one size, written to {@code dir} as PNG: the distribution of the pods' time from created to Running in
   * the scale-out, and the fleet's $/h through all phases, one line per controller; returns the Markdown that shows
   * them from a report beside {@code dir}.
   */
  static List<String> figures(List<PeerRun.Result> results, Path dir, int pods) throws IOException {
    Path running = Charts.lines(dir.resolve("peer-system-" + pods + "-running.png"), pods + " pods: created to Running",
        "seconds", "share of pods", waits(results));
    Path price = Charts.lines(dir.resolve("peer-system-" + pods + "-price.png"), pods + " pods: the fleet's price, scale-out, "
        + "consolidation and drift", "seconds from the start", "$/h", prices(results));
    return List.of("![" + pods + " pods: created to Running](" + dir.getFileName() + "/" + running.getFileName() + ")",
        "![" + pods + " pods: the fleet's price](" + dir.getFileName() + "/" + price.getFileName() + ")");
  }

  /** One distribution per controller of its pods' seconds from created to Running. */
  static List<Charts.Line> waits(List<PeerRun.Result> results) {
    return results.stream().map(r -> Charts.distribution(r.controller(), r.series().toRunningSeconds())).toList();
  }

  /** One line per controller of its fleet's $/h over the run. */
  static List<Charts.Line> prices(List<PeerRun.Result> results) {
    return results.stream().map(r -> new Charts.Line(r.controller(), r.series().fleetPrice())).toList();
  }

  static String fleet(FleetPrice fleet) {
    return String.format(Locale.ROOT, "%d (%d) / $%.3f%s", fleet.nodes(), fleet.spot(), fleet.dollarsPerHour(),
        fleet.unpriced() == 0 ? "" : " + " + fleet.unpriced() + " unpriced");
  }

  static String seconds(Optional<Double> seconds) {
    return seconds.map(s -> String.format(Locale.ROOT, "%.1f", s)).orElse("not settled");
  }

  static String cost(ProcessMeter.Use use) {
    return String.format(Locale.ROOT, "%.1f / %.0f", use.cpuSeconds(), use.peakRssMiB());
  }

  static String costSettled(ProcessMeter.Use use) {
    return String.format(Locale.ROOT, "%.1f / %.0f / %.0f", use.cpuSeconds(), use.peakRssMiB(), use.lastRssMiB());
  }
}

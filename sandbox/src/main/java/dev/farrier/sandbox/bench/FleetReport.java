package dev.farrier.sandbox.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The fleet benchmark's tables and figures, one row per roll. */
final class FleetReport {
  /**
   * One roll of a fleet: what it was, when it began (the switch, or the CLI's start) and ended, what ran, and how long
   * each node it brought took from registering to Ready ({@link NodeWatch}).
   */
  record Roll(String name, int nodes, String budget, int slots, Instant began, Instant rolled, List<WorkflowRuns.Run> replacements,
      List<BenchFleet.Sample> samples, int batches, List<Long> nodeReadyMillis) {
    Roll withSlots(int all) {
      return new Roll(name, nodes, all + " (100%)", all, began, rolled, replacements, samples, batches, nodeReadyMillis);
    }
  }

  private final List<String> rolls = new ArrayList<>();
  private final List<String> costs = new ArrayList<>();
  private final List<String> figureLinks = new ArrayList<>();
  private final String label;
  private final Path figures;

  FleetReport(String label, Path figures) {
    this.label = label;
    this.figures = figures;
  }

  /** Budget slots of a fleet: a count, or a percentage of the nodes rounded up (as Karpenter rounds budgets). */
  static int slots(String budget, int nodes) {
    String b = budget.strip();
    return b.endsWith("%")
        ? (int) Math.ceil(nodes * Integer.parseInt(b.substring(0, b.length() - 1)) / 100.0)
        : Integer.parseInt(b);
  }

  /**
   * The batches a perfect {@code farrier upgrade} of {@code nodes} needs with a canary of one and then {@code slots} at
   * a time: the ideal a rolling upgrade ({@code --rolling}, whose refills are not batches) is measured against.
   */
  static int upgradeBatches(int nodes, int slots) {
    return nodes <= 0 ? 0 : 1 + (nodes - 1 + slots - 1) / slots;
  }

  void add(Roll roll) {
    if (roll.replacements().isEmpty()) {
      throw new IllegalStateException(roll.name() + ": no replacement ran");
    }
    var intervals = new Intervals(roll.replacements().stream().map(WorkflowRuns.Run::interval).toList());
    var durations = Percentiles.of(roll.replacements().stream().map(r -> r.interval().end() - r.interval().start()).toList());
    long ideal = roll.batches() > 0
        ? Math.round(roll.batches() * durations.median())
        : Intervals.idealMillis(roll.replacements().size(), roll.slots(), durations.median());
    rolls.add(String.format(Locale.ROOT, "| %s | %d | %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.3f | %.1f | %d | %s |",
        roll.name(), roll.nodes(), roll.budget(), roll.replacements().size(),
        seconds(intervals.firstStart() - roll.began().toEpochMilli()), seconds(intervals.spanMillis()),
        seconds(Duration.between(roll.began(), roll.rolled()).toMillis()), seconds(durations.median()), seconds(durations.p99()),
        seconds(ideal), intervals.spanMillis() / (double) ideal, intervals.meanConcurrency(), intervals.maxConcurrency(),
        roll.batches() > 0 ? Integer.toString(roll.batches()) : "-"));
    costs.add(cost(roll));
    figureLinks.add(figure(roll, intervals));
  }

  private static String cost(Roll roll) {
    List<HistoryCost> own = roll.replacements().stream().map(WorkflowRuns.Run::cost).toList();
    List<HistoryCost> launches = roll.replacements().stream().flatMap(r -> r.children().stream()).toList();
    List<Long> waits = new ArrayList<>();
    List<Long> runs = new ArrayList<>();
    for (HistoryCost c : own) {
      waits.addAll(c.scheduleToStartMillis());
      runs.addAll(c.executionMillis());
    }
    for (HistoryCost c : launches) {
      waits.addAll(c.scheduleToStartMillis());
      runs.addAll(c.executionMillis());
    }
    var events = Percentiles.of(own.stream().map(HistoryCost::events).toList());
    var bytes = Percentiles.of(own.stream().map(HistoryCost::bytes).toList());
    String launchEvents = launches.isEmpty() ? "-" : range(Percentiles.of(launches.stream().map(HistoryCost::events).toList()));
    var wait = Percentiles.of(waits);
    var run = Percentiles.of(runs);
    String nodeReady = roll.nodeReadyMillis().isEmpty() ? "-" : percentiles(Percentiles.of(roll.nodeReadyMillis()));
    return String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %d | %.0f / %.0f | %.0f / %.0f | %s |", roll.name(),
        roll.replacements().size(), range(events), range(bytes), launchEvents, waits.size(), wait.median(), wait.p99(),
        run.median(), run.p99(), nodeReady);
  }

  private static String percentiles(Percentiles p) {
    return String.format(Locale.ROOT, "%.1f / %.1f (%d)", seconds(p.median()), seconds(p.p99()), p.count());
  }

  private static String range(Percentiles p) {
    return String.format(Locale.ROOT, "%.0f / %.0f", p.median(), p.max());
  }

  private String figure(Roll roll, Intervals intervals) {
    long origin = roll.began().toEpochMilli();
    var running = new Charts.Line("replacements running", intervals.runningOverTime(origin, 1_000));
    var onTarget = new Charts.Line("fleet nodes on the new release",
        roll.samples().stream().map(s -> new double[] {s.seconds(), s.onTarget()}).toList());
    var slots = new Charts.Line("budget slots", List.of(new double[] {0, roll.slots()},
        new double[] {seconds(intervals.lastEnd() - origin), roll.slots()}));
    String file = "fleet-" + roll.name() + ".png";
    try {
      Charts.lines(figures.resolve(file), roll.name() + ": " + roll.nodes() + " nodes, budget " + roll.budget(),
          "seconds since " + (roll.batches() > 0 ? "farrier upgrade started" : "the EC2NodeClass switch"), "nodes",
          List.of(running, onTarget, slots));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return "![" + roll.name() + "](figures/" + file + ")";
  }

  private static double seconds(double millis) {
    return millis / 1000.0;
  }

  List<String> lines() {
    List<String> lines = new ArrayList<>(List.of("Fleet rolls on the sandbox (simulated cloud, one worker). " + label, "",
        "| run | nodes | budget | replacements | first started after s | makespan s | rolled after s | median replacement s "
            + "| p99 replacement s | ideal s | makespan / ideal | mean running | max running | batches |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"));
    lines.addAll(rolls);
    lines.addAll(List.of("", "Temporal cost per replacement (its own history; its launch child's apart) and workflow tasks "
            + "(replacements' and launches' together); how long the local stack (kwok) took to make the roll's new nodes Ready:", "",
        "| run | replacements | events median / max | bytes median / max | launch events median / max | workflow tasks "
            + "| schedule-to-start ms p50 / p99 | execution ms p50 / p99 | new nodes registered to Ready s p50 / p99 (nodes) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|"));
    lines.addAll(costs);
    lines.add("");
    lines.addAll(figureLinks);
    return lines;
  }
}

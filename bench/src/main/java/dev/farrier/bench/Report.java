package dev.farrier.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The scheduling benchmark's table, printed as each workload finishes and written to a Markdown file at the end. */
final class Report {
  private static final String HEADER = "| mix | pods | runs (warm-up) | median ms | min-max ms | pods/s | nodes | unplaced "
      + "| claims breaking anti-affinity | price $/h | lower bound $/h | price / bound | pod-class bound $/h "
      + "| price / pod-class bound |";
  private static final String RULE = "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";

  private final List<String> preamble;
  private final List<String> rows = new ArrayList<>();
  private final List<String> bounds = new ArrayList<>();

  Report(List<String> preamble) {
    this.preamble = List.copyOf(preamble);
  }

  void printHeader() {
    preamble.forEach(System.out::println);
    System.out.println();
    System.out.println(HEADER);
    System.out.println(RULE);
  }

  void add(CaseResult r) {
    String row = String.format(Locale.ROOT, "| %s | %d | %d (%d) | %.1f | %.1f-%.1f | %.0f | %d | %d | %d | %.2f | %.2f | %.3f | %.2f | %.3f |",
        r.mix().name().toLowerCase(Locale.ROOT), r.pods(), r.millis().count(), r.warmups(), r.millis().median(),
        r.millis().min(), r.millis().max(), r.podsPerSecond(), r.nodes(), r.unplaced(), r.antiAffinityBroken(), r.price(),
        r.bound().perHour(), r.ratioToBound(), r.classBound().perHour(), r.ratioToClassBound());
    rows.add(row);
    bounds.add(String.format(Locale.ROOT, "- %s %d: %s", r.mix().name().toLowerCase(Locale.ROOT), r.pods(), r.bound().how()));
    System.out.println(row);
  }

  void write(Path file) throws IOException {
    List<String> lines = new ArrayList<>(preamble);
    lines.add("");
    lines.add(HEADER);
    lines.add(RULE);
    lines.addAll(rows);
    lines.add("");
    lines.add("Lower bound reached by the fractional fleet:");
    lines.addAll(bounds);
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.write(file, lines);
    System.out.println();
    System.out.println("written to " + file);
  }
}

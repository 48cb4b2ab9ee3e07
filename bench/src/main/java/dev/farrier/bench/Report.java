package dev.farrier.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The scheduling benchmark's table, printed as each workload finishes and written to a Markdown file at the end. */
final class Report {
  private static final String HEADER = "| mix | pods | runs (warm-up) | median ms | min-max ms | pods/s | nodes | unplaced "
      + "| claims breaking anti-affinity | price $/h | lower bound $/h | price / bound | pod-class bound $/h "
      + "| price / pod-class bound |";
  private static final String RULE = "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";

  private final MarkdownReport table;

  Report(List<String> preamble) {
    table = new MarkdownReport(preamble, HEADER, RULE, "Lower bound reached by the fractional fleet:");
  }

  void printHeader() {
    table.printHeader();
  }

  void add(CaseResult r) {
    String row = String.format(Locale.ROOT, "| %s | %d | %d (%d) | %.1f | %.1f-%.1f | %.0f | %d | %d | %d | %.2f | %.2f | %.3f | %.2f | %.3f |",
        r.mix().name().toLowerCase(Locale.ROOT), r.pods(), r.millis().count(), r.warmups(), r.millis().median(),
        r.millis().min(), r.millis().max(), r.podsPerSecond(), r.nodes(), r.unplaced(), r.antiAffinityBroken(), r.price(),
        r.bound().perHour(), r.ratioToBound(), r.classBound().perHour(), r.ratioToClassBound());
    table.add(row, String.format(Locale.ROOT, "- %s %d: %s", r.mix().name().toLowerCase(Locale.ROOT), r.pods(), r.bound().how()));
  }

  void write(Path file) throws IOException {
    table.write(file);
  }
}

package dev.farrier.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The consolidation benchmark's table, printed as each case finishes and written to a Markdown file at the end. */
final class ConsolidationReport {
  private static final String HEADER = "| mix | pods | naive type | nodes before | $/h before | nodes after | $/h after "
      + "| pod-class bound $/h | after / pod-class bound | summed bound $/h | after / summed bound | deletes | replaces "
      + "| rounds | planner s | wall s |";
  private static final String RULE = "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";

  private final MarkdownReport table;

  ConsolidationReport(List<String> preamble) {
    table = new MarkdownReport(preamble, HEADER, RULE, "Fleets after consolidation:");
  }

  void printHeader() {
    table.printHeader();
  }

  void add(ConsolidationResult r) {
    ConsolidationRounds.Outcome o = r.outcome();
    String mix = r.mix().name().toLowerCase(Locale.ROOT);
    String row = String.format(Locale.ROOT, "| %s | %d | %s | %d | %.2f | %d | %.2f | %.2f | %.3f | %.2f | %.3f | %d | %d | %d%s | %.1f | %.1f |",
        mix, r.pods(), r.naiveType(), r.nodesBefore(), r.priceBefore(), r.nodesAfter(), r.priceAfter(), r.classBound().perHour(),
        r.ratioToClassBound(), r.bound().perHour(), r.ratioToBound(), o.deletes(), o.replaces(), o.rounds(),
        o.capHit() ? " (cap hit)" : "", o.plannerMillis() / 1000, r.wallMillis() / 1000);
    table.add(row, String.format(Locale.ROOT, "- %s %d (naive fleet packed in %.1f s): %s", mix, r.pods(), r.packMillis() / 1000,
        r.after()));
  }

  void write(Path file) throws IOException {
    table.write(file);
  }
}

package dev.farrier.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The side-by-side table, printed row by row and written to a Markdown file with a note per size. */
final class PeerReport {
  static final String HEADER = "| pods | Karpenter ms | Karpenter pods/s | Karpenter nodes | Karpenter $/h (nodes priced) "
      + "| Farrier median ms (runs) | Farrier pods/s | Farrier cold ms | Farrier nodes | Farrier $/h "
      + "| Farrier / Karpenter pods/s, warm (cold) | Farrier / Karpenter $/h | Farrier's price not higher "
      + "| pod-class bound $/h |";
  static final String RULE = "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|";

  private final MarkdownReport table;

  PeerReport(List<String> preamble) {
    table = new MarkdownReport(preamble, HEADER, RULE, "Notes:");
  }

  void printHeader() {
    table.printHeader();
  }

  void add(PeerRow r) {
    table.add(row(r), note(r));
  }

  static String row(PeerRow r) {
    CaseResult f = r.farrier();
    return String.format(Locale.ROOT,
        "| %d | %.0f | %.0f | %d | %.2f (%d) | %.1f (%d) | %.0f | %.0f | %d | %.2f | %.1fx (%.1fx) | %.3f | %s | %.2f |",
        r.pods(), r.karpenter().millisPerSolve(), r.karpenter().podsPerSecond(), r.karpenter().nodes(),
        r.karpenterPlan().pricePerHour(), r.karpenterPlan().claims().size(), f.millis().median(), f.millis().count(),
        f.podsPerSecond(), r.farrierCold().millis(), f.nodes(), f.price(), r.speedRatio(), r.coldSpeedRatio(),
        r.priceRatio(), r.priceNotHigher() ? "yes" : "**no**", f.classBound().perHour());
  }

  static String note(PeerRow r) {
    CaseResult f = r.farrier();
    return String.format(Locale.ROOT, "- %d pods: Karpenter %s, %d iteration(s), %d pods on new nodes; Farrier %d measured "
        + "run(s) after %d warm-up, %.1f-%.1f ms, %d unplaced, %d claims breaking anti-affinity; summed bound $%.2f/h",
        r.pods(), r.karpenter().benchmark(), r.karpenter().iterations(), r.karpenter().pods(), f.millis().count(),
        f.warmups(), f.millis().min(), f.millis().max(), f.unplaced(), f.antiAffinityBroken(), f.bound().perHour())
        + (r.farrierCold().nodes() == f.nodes() ? "" : String.format(Locale.ROOT, "; the cold plan had %d nodes, $%.2f/h",
            r.farrierCold().nodes(), r.farrierCold().pricePerHour()));
  }

  void note(String note) {
    table.note(note);
  }

  void write(Path file) throws IOException {
    table.write(file);
  }
}

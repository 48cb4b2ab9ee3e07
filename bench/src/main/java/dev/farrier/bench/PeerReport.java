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
      + "| pod-class bound $/h | load, 1 min: Karpenter / Farrier |";
  static final String RULE = "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|";

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
    CaseResult f = r.farrier().warm();
    return String.format(Locale.ROOT,
        "| %d | %.0f | %.0f | %d | %.2f (%d) | %.1f (%d) | %.0f | %.0f | %d | %.2f | %.1fx (%.1fx) | %.3f | %s | %.2f | %s / %s |",
        r.pods(), r.karpenter().millisPerSolve(), r.karpenter().podsPerSecond(), r.karpenter().nodes(),
        r.karpenterPlan().pricePerHour(), r.karpenterPlan().claims().size(), f.millis().median(), f.millis().count(),
        f.podsPerSecond(), r.farrier().coldMillis(), f.nodes(), f.price(), r.speedRatio(), r.coldSpeedRatio(),
        r.priceRatio(), r.priceNotHigher() ? "yes" : "**no**", f.classBound().perHour(), r.karpenterLoad(), r.farrier().load());
  }

  static String note(PeerRow r) {
    CaseResult f = r.farrier().warm();
    return String.format(Locale.ROOT, "- %d pods: Karpenter %s, %d iteration(s), %d pods on new nodes, price %.3fx the "
        + "pod-class bound; Farrier %d measured run(s) after %d warm-up, %.1f-%.1f ms, %d unplaced, %d claims breaking "
        + "anti-affinity, price %.3fx the pod-class bound; summed bound $%.2f/h (%s)",
        r.pods(), r.karpenter().benchmark(), r.karpenter().iterations(), r.karpenter().pods(),
        r.karpenterPlan().pricePerHour() / f.classBound().perHour(), f.millis().count(), f.warmups(), f.millis().min(),
        f.millis().max(), f.unplaced(), f.antiAffinityBroken(), f.ratioToClassBound(), f.bound().perHour(), f.bound().how());
  }

  void write(Path file) throws IOException {
    table.write(file);
  }
}

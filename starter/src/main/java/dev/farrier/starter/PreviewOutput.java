package dev.farrier.starter;

import dev.farrier.model.RolloutPreview;
import dev.farrier.model.RolloutPreview.PreviewBatch;
import dev.farrier.model.RolloutPreview.PreviewHold;
import dev.farrier.model.RolloutPreview.PreviewNode;
import java.io.PrintWriter;

/**
 * A rollout's preview as {@code farrier upgrade --dry-run} and {@code farrier upgrade preview} print it: text, a line per
 * node under its batch with its images and holds, or the whole answer as JSON; and the exit code it means.
 */
final class PreviewOutput {
  private PreviewOutput() {}

  /** Prints the preview; returns {@link ExitCodes#DONE} when the real run would replace nodes, else {@link ExitCodes#NOTHING_TO_REPLACE}. */
  static int print(RolloutPreview p, FarrierCommand.Output output, PrintWriter out) {
    out.println(output == FarrierCommand.Output.JSON ? Json.write(p) : text(p));
    out.flush();
    return p.notStarting() == null ? ExitCodes.DONE : ExitCodes.NOTHING_TO_REPLACE;
  }

  static String text(RolloutPreview p) {
    StringBuilder s = new StringBuilder();
    s.append(p.running() ? "what rollout " + p.rollout() + " has left" : "preview of " + p.rollout())
        .append(" (nothing moved): NodePools ").append(p.nodePools()).append(" of EC2NodeClass ").append(p.nodeClass())
        .append(" to ").append(p.target()).append(' ').append(p.targetImages()).append('\n');
    if (p.notStarting() != null) {
      return s.append(p.notStarting()).toString();
    }
    if (p.frozen() != null) {
      s.append("frozen now: ").append(p.frozen()).append(": no batch starts until the freeze is lifted\n");
    }
    int left = p.inFlight().size() + p.held().size() + p.batches().stream().mapToInt(b -> b.nodes().size()).sum();
    s.append(p.running() ? left + " of " + p.total() + " node(s) left: " : p.total() + " node(s) to replace: ");
    s.append(p.running() && p.batches().stream().noneMatch(PreviewBatch::canary) ? "" : "canary " + p.canary() + ", then ");
    s.append(p.rolling() ? "up to " + p.slots() + " rolling slot(s) in flight, each refilled once its replacement passed its gate"
        : "batches of " + p.slots()).append(" (within the NodePools' disruption budgets)\n");
    if (!p.inFlight().isEmpty()) {
      s.append("in flight now:\n");
      p.inFlight().forEach(n -> node(s, n));
    }
    for (PreviewBatch b : p.batches()) {
      s.append(p.rolling() && !b.canary() ? "wave " : "batch ").append(b.number()).append(b.canary() ? " (canary)" : "").append(":\n");
      b.nodes().forEach(n -> node(s, n));
    }
    if (!p.held().isEmpty()) {
      s.append("held (the rollout waits for them):\n");
      p.held().forEach(n -> {
        node(s, n);
        s.append("      ").append(n.why()).append('\n');
      });
    }
    var e = p.estimate();
    s.append("estimate: ").append(e.totalSeconds() == null ? "" : BlockedFor.format(e.totalSeconds()) + " (")
        .append(e.basis()).append(e.totalSeconds() == null ? "" : ")");
    return s.toString();
  }

  private static void node(StringBuilder s, PreviewNode n) {
    s.append("  ").append(n.nodeClaim()).append("  node ").append(n.node()).append("  ").append(n.nodePool())
        .append("  ").append(n.instanceType()).append("  ").append(image(n.imageBefore(), n.imageBeforeName()))
        .append(" -> ").append(image(n.imageAfter(), n.imageAfterName())).append('\n');
    for (PreviewHold h : n.holds()) {
      s.append("      held by ").append(h.kind()).append(' ').append(h.name()).append(": ").append(h.until()).append('\n');
    }
  }

  private static String image(String id, String name) {
    return id == null ? "?" : name == null ? id : id + " (" + name + ")";
  }
}

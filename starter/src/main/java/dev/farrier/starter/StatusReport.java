package dev.farrier.starter;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.farrier.workflows.replacement.ReplacementProgress;
import java.time.Instant;
import java.util.List;

/** A replacement's progress as {@code farrier status} prints it, for people or (as JSON) for scripts. */
final class StatusReport {
  /** Long pod lists are cut here in the human output; the JSON has them all. */
  static final int PODS_SHOWN = 5;

  private StatusReport() {}

  /** The progress query's answer as it is, plus {@code blockedForSeconds} (null when not blocked or unknown). */
  static String json(ReplacementProgress progress, Instant now) {
    ObjectNode node = Json.MAPPER.valueToTree(progress);
    Long blockedFor = BlockedFor.seconds(progress.blocker(), now);
    if (blockedFor == null) {
      node.putNull("blockedForSeconds");
    } else {
      node.put("blockedForSeconds", blockedFor);
    }
    return Json.write(node);
  }

  static String text(String workflowId, ReplacementProgress p, Instant now) {
    var out = new StringBuilder();
    line(out, "replacement of", workflowId + " (node " + orDash(p.nodeName()) + ", nodepool " + orDash(p.nodePool()) + ")");
    line(out, "phase", p.phase() + (p.pastPointOfNoReturn() ? " (past the point of no return: abort no longer possible)" : ""));
    line(out, "paused", p.paused() ? "yes" : "no");
    line(out, "reason", orDash(p.reason()));
    line(out, "replacement", p.replacement() == null ? "none" : p.replacement());
    line(out, "pods left", p.podsLeft().size() + (p.podsLeft().isEmpty() ? "" : " (" + some(p.podsLeft()) + ")"));
    line(out, "evicted", Integer.toString(p.evicted().size()));
    String blocked = blocked(p, now);
    if (blocked == null) {
      line(out, "blocked", "no");
    } else {
      out.append("blocked ").append(blocked).append(System.lineSeparator());
    }
    line(out, "forced drain", p.forceDrain() == null ? "no" : p.forceDrain());
    return out.toString();
  }

  /** "for 2m13s by PodDisruptionBudget default/x (pods: default/a, default/b)", or null when nothing blocks. */
  static String blocked(ReplacementProgress p, Instant now) {
    if (p.blocker() == null) {
      return p.blockedBy() == null ? null : "by " + p.blockedBy();
    }
    Long seconds = BlockedFor.seconds(p.blocker(), now);
    return (seconds == null ? "" : "for " + BlockedFor.format(seconds) + " ") + "by " + p.blocker().summary()
        + (p.blocker().pods().isEmpty() ? "" : " (pods: " + some(p.blocker().pods()) + ")");
  }

  private static String some(List<String> pods) {
    return pods.size() <= PODS_SHOWN ? String.join(", ", pods)
        : String.join(", ", pods.subList(0, PODS_SHOWN)) + " and " + (pods.size() - PODS_SHOWN) + " more";
  }

  private static void line(StringBuilder out, String label, String value) {
    out.append(String.format("%-15s %s%n", label + ":", value));
  }

  private static String orDash(String value) {
    return value == null ? "-" : value;
  }
}

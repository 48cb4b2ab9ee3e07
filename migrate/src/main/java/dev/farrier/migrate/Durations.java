package dev.farrier.migrate;

import org.yaml.snakeyaml.nodes.NodeTuple;

/** v1alpha5's seconds as a v1 duration, in the largest whole unit ({@code 2592000} is {@code 720h}). */
final class Durations {
  private Durations() {}

  static String ofSeconds(Ctx ctx, Doc doc, String field, NodeTuple at) {
    String text = Tree.text(at.getValueNode());
    long seconds;
    try {
      seconds = Long.parseLong(text == null ? "" : text.strip());
    } catch (NumberFormatException e) {
      ctx.problem(doc, field, at.getKeyNode(), "expected a whole number of seconds, got " + Tree.flow(at.getValueNode()));
      return "0s";
    }
    if (seconds < 0) {
      ctx.problem(doc, field, at.getKeyNode(), "expected zero or more seconds, got " + seconds);
      return "0s";
    }
    return format(seconds);
  }

  static String format(long seconds) {
    if (seconds > 0 && seconds % 3600 == 0) {
      return seconds / 3600 + "h";
    }
    if (seconds > 0 && seconds % 60 == 0) {
      return seconds / 60 + "m";
    }
    return seconds + "s";
  }
}

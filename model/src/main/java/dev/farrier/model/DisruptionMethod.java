package dev.farrier.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/** How a node is disrupted, as Karpenter's disruption log line names it (and as payloads carry it: lower case). */
public enum DisruptionMethod {
  /** Launch a replacement first, then drain the node onto it. */
  REPLACE("replace"),
  /** No replacement: the node's pods fit elsewhere, it has none, or a user deleted its NodeClaim. */
  DELETE("delete");

  private final String word;

  DisruptionMethod(String word) {
    this.word = word;
  }

  @JsonValue
  public String word() {
    return word;
  }

  @JsonCreator
  public static DisruptionMethod of(String word) {
    return Arrays.stream(values()).filter(m -> m.word.equals(word)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown disruption method " + word));
  }

  @Override
  public String toString() {
    return word;
  }
}

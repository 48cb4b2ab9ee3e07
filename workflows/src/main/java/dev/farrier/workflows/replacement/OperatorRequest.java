package dev.farrier.workflows.replacement;

/**
 * Input of an operator's action on a replacement ({@code Pause}, {@code Resume}, {@code Abort}, {@code Retry},
 * {@code ForceDrain}, {@code Approve}).
 *
 * @param reason why, in words: required for {@code Abort} and {@code ForceDrain} (recorded in the history and on the
 *               node's Event), optional for the others
 * @param by     who asks (a user name, a CI job); optional, recorded with the reason
 */
public record OperatorRequest(String reason, String by) {
  public static OperatorRequest of(String reason) {
    return new OperatorRequest(reason, null);
  }

  /** The reason and, when given, who gave it: "bad AMI (by alice)". */
  public String describe() {
    String text = reason == null || reason.isBlank() ? "no reason given" : reason.strip();
    return by == null || by.isBlank() ? text : text + " (by " + by.strip() + ")";
  }

  public boolean hasReason() {
    return reason != null && !reason.isBlank();
  }
}

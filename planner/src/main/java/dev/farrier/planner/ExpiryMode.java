package dev.farrier.planner;

/**
 * How a NodePool's expired nodes are disrupted ({@code farrier.dev/expiry} on the NodePool).
 *
 * <p>{@link #FORCEFUL} is Karpenter v1's expiration and the default: not held by budgets or do-not-disrupt, drained at
 * once (PDBs and do-not-disrupt pods respected until the terminationGracePeriod) with its replacement launched in
 * parallel. {@link #REPLACE_FIRST} is the gentler expiry of Karpenter before v1, kept as an opt-in: a voluntary
 * disruption like drift (budgets that name no reason, do-not-disrupt) whose replacement initializes before the drain.
 */
public enum ExpiryMode {
  FORCEFUL("forceful"),
  REPLACE_FIRST("replace-first");

  private final String word;

  ExpiryMode(String word) {
    this.word = word;
  }

  /** The annotation's value for this mode. */
  public String word() {
    return word;
  }

  /** The mode an annotation value asks for; absent or unknown values are {@link #FORCEFUL}, Karpenter's semantics. */
  public static ExpiryMode ofAnnotation(String value) {
    return value != null && REPLACE_FIRST.word.equals(value.trim()) ? REPLACE_FIRST : FORCEFUL;
  }

  @Override
  public String toString() {
    return word;
  }
}

package dev.farrier.workflows.upgrade;

/** Where a fleet upgrade is; {@link #label()} is what the FarrierPhase search attribute and the CLI show. */
public enum UpgradePhase {
  CLAIMING("Claiming"),
  SWITCHING("SwitchingImages"),
  CANARY("Canary"),
  BATCH("Batch"),
  /** After the canary with {@code --rolling}: up to a batch of replacements in flight, each gated on its own. */
  ROLLING("Rolling"),
  WAITING("Waiting"),
  GATE("Gate"),
  SOAKING("Soaking"),
  AWAITING_APPROVAL("AwaitingApproval"),
  ROLLING_BACK("RollingBack"),
  SUCCEEDED("Succeeded"),
  FAILED("Failed"),
  ABORTED("Aborted");

  private final String label;

  UpgradePhase(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  public boolean finished() {
    return this == SUCCEEDED || this == FAILED || this == ABORTED;
  }

  /** Once rolling back (or ended), an abort has nothing left to stop. */
  boolean stopping() {
    return this == ROLLING_BACK || finished();
  }
}

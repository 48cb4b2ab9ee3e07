package dev.farrier.workflows.provisioning;

/**
 * Where a launch ({@code launch/<nodeclaim>}) stands. Its {@link #label()} is what the {@code FarrierPhase} search
 * attribute and the {@code phase} query show, in the same words as {@code ReplacementPhase} where they mean the same.
 */
public enum LaunchPhase {
  CREATING("Creating"),
  LAUNCHING("Launching"),
  REGISTERING("Registering"),
  INITIALIZING("Initializing"),
  INITIALIZED("Initialized"),
  ROLLING_BACK("RollingBack"),
  FAILED("Failed");

  private final String label;

  LaunchPhase(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  @Override
  public String toString() {
    return label;
  }
}

package dev.farrier.model;

/**
 * Timeouts of a launch, from the worker's configuration (workflows read no config themselves).
 * Karpenter's defaults: 15 minutes to register; Farrier waits as long again for the node to initialize.
 */
public record LaunchSettings(long registrationTimeoutSeconds, long initializationTimeoutSeconds) {
  public static final LaunchSettings DEFAULTS = new LaunchSettings(900, 900);
}

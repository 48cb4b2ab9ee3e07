package dev.farrier.localstack;

/**
 * A local stack component could not be started or stopped. The message names the component and, when it wrote one,
 * ends with the tail of its log so a failing test shows why without anyone opening the run directory.
 */
public final class LocalStackException extends RuntimeException {
  private final String component;

  public LocalStackException(String component, String message, String logTail) {
    super(format(component, message, logTail));
    this.component = component;
  }

  public LocalStackException(String component, String message, Throwable cause) {
    super(format(component, message, ""), cause);
    this.component = component;
  }

  /** The component that failed: temporal, etcd, kube-apiserver, kube-controller-manager, kube-scheduler or kwok. */
  public String component() {
    return component;
  }

  private static String format(String component, String message, String logTail) {
    String head = component + ": " + message;
    return logTail == null || logTail.isBlank() ? head : head + "\n--- last lines of " + component + ".log ---\n" + logTail;
  }
}

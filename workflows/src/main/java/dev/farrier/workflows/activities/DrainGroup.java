package dev.farrier.workflows.activities;

/**
 * The groups a drain empties one after the other, as Karpenter v1's terminator does (after the Kubernetes graceful
 * node shutdown order): a group's pods are evicted only once every pod of the groups before it is gone. Critical means
 * priorityClassName {@code system-cluster-critical} or {@code system-node-critical}.
 */
public enum DrainGroup {
  NON_CRITICAL("non-critical pods"),
  NON_CRITICAL_DAEMONSET("non-critical DaemonSet pods"),
  CRITICAL("critical pods"),
  CRITICAL_DAEMONSET("critical DaemonSet pods");

  private final String words;

  DrainGroup(String words) {
    this.words = words;
  }

  /** How the blocker names the group, e.g. "non-critical pods (drain group 1 of 4)". */
  public String describe() {
    return words + " (drain group " + (ordinal() + 1) + " of " + values().length + ")";
  }
}

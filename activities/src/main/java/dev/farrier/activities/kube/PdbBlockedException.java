package dev.farrier.activities.kube;

import java.time.Duration;

/**
 * An eviction refused with 429 because a PodDisruptionBudget allows no more disruptions now. Expected and
 * transient: the caller waits {@link #retryAfter()} (or longer) and tries again, or reports the PDB as blocking.
 * Its {@code ApplicationFailure} type is {@link #FAILURE_TYPE}.
 */
public class PdbBlockedException extends Exception {
  public static final String FAILURE_TYPE = "PdbBlocked";

  private final String podNamespace;
  private final String podName;
  private final String pdbNamespace;
  private final String pdbName;
  private final Duration retryAfter;

  public PdbBlockedException(String podNamespace, String podName, String pdbNamespace, String pdbName,
      Duration retryAfter, String serverMessage) {
    super("eviction of pod " + podNamespace + "/" + podName + " blocked by PodDisruptionBudget "
        + (pdbName == null ? "(unknown)" : pdbNamespace + "/" + pdbName) + ": " + serverMessage);
    this.podNamespace = podNamespace;
    this.podName = podName;
    this.pdbNamespace = pdbNamespace;
    this.pdbName = pdbName;
    this.retryAfter = retryAfter;
  }

  public String podNamespace() {
    return podNamespace;
  }

  public String podName() {
    return podName;
  }

  /** The blocking PDB's namespace (the pod's); null only when no PDB could be identified. */
  public String pdbNamespace() {
    return pdbNamespace;
  }

  /** The blocking PDB's name; null only when the server did not name it and no PDB in the namespace selects the pod. */
  public String pdbName() {
    return pdbName;
  }

  /** {@code namespace/name} of the PDB, as {@code DrainStatus.blockingPdbs} lists it. */
  public String pdbKey() {
    return pdbNamespace + "/" + pdbName;
  }

  /** How long to wait before trying again: the server's Retry-After when it sent one, a few seconds otherwise. */
  public Duration retryAfter() {
    return retryAfter;
  }
}

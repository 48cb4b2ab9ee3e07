package dev.farrier.workflows.activities;

/**
 * A pod a drain pass could not move, and why.
 *
 * @param pod    namespace/name
 * @param cause  why it stays
 * @param detail the PodDisruptionBudget (namespace/name) that refused it, or the error of a failed eviction; else null
 */
public record HeldPod(String pod, Cause cause, String detail) {
  public enum Cause {
    /** A PodDisruptionBudget refused the eviction (HTTP 429). */
    PDB,
    /** Annotated {@code karpenter.sh/do-not-disrupt: "true"}. */
    DO_NOT_DISRUPT,
    /** No controller owns it: evicted, it would be gone for good (as {@code kubectl drain} refuses without --force). */
    NO_CONTROLLER,
    /** The eviction call failed for another reason (two PDBs cover the pod, an API error, a time-out). */
    EVICTION_FAILED
  }
}

package dev.farrier.workflows.activities;

/**
 * What a surge request found or did for one held pod.
 *
 * @param pod         namespace/name of the held pod
 * @param deployment  namespace/name of the Deployment that owns it, or null when none does
 * @param result      what happened
 * @param reason      why, in words (the refusal, the stall), or null
 */
public record SurgeOutcome(String pod, String deployment, Result result, String reason) {
  public enum Result {
    /** This call restarted the Deployment: its new pod starts elsewhere, the old one goes once the new one is Ready. */
    STARTED,
    /** A surge of this pod was started before (the Deployment carries this pod's UID as its mark); its new pod is not Ready yet. */
    SURGING,
    /**
     * The surge started for this pod can no longer move it: past the Deployment's progress deadline, the Deployment
     * paused since, or its rollout finished with the pod still there (its template written back).
     */
    STALLED,
    /** It cannot surge safely (the reason says why); the drain waits for the PDB as without surges. */
    REFUSED,
    /** Not a surge's business any more (the pod is gone, no Deployment owns it, the workload opted out). */
    NOT_APPLICABLE
  }

  /** Same answer as {@code other}: an Event says it once. */
  public boolean sameAs(SurgeOutcome other) {
    return other != null && result == other.result && java.util.Objects.equals(reason, other.reason);
  }

  /** The surge holds the pod: the drain waits for it rather than for the PDB alone. */
  public boolean surging() {
    return result == Result.STARTED || result == Result.SURGING;
  }
}

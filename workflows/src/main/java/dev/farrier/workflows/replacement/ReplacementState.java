package dev.farrier.workflows.replacement;

import dev.farrier.workflows.activities.SurgeOutcome;
import dev.farrier.workflows.provisioning.LaunchedNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything a replacement knows about its progress, in one value: the workflow replaces it as it goes, its
 * {@code progress} query reads it, and a long drain carries it whole into the next run (continue-as-new).
 *
 * @param phase              the step it is in
 * @param pastPointOfNoReturn the instance's termination was started: the node can no longer be given back
 * @param paused             an operator paused it
 * @param tainted            this workflow put the disrupted taint on the node (removed by a rollback)
 * @param cordoned           this workflow cordoned the node (an operator's cordon is left alone by a rollback)
 * @param replacementName    the replacement NodeClaim, once planned
 * @param replacement        the replacement, once initialized (kept as capacity by an abort)
 * @param graceEndsAtMillis  when the NodePool's terminationGracePeriod ends, {@link Long#MAX_VALUE} if unset or not draining
 *                           yet; counted from the drain's start, or from the start of a forceful expiry
 * @param evicted            pods evicted so far (namespace/name)
 * @param podsLeft           pods still on the node at the last drain pass
 * @param blocker            what holds it up now, or null
 * @param interruption       set when the node is being interrupted (drained at once)
 * @param forceDrain         an operator's force-drain, or null: PDBs and do-not-disrupt no longer hold the drain
 * @param approved           an operator approved the drain of the old node (when approval is required)
 * @param surges             the last surge answer for each PDB-held pod opted in to surges (one per pod): what the
 *                           blocker says, and what the next request names as previous
 */
public record ReplacementState(
    ReplacementPhase phase,
    boolean pastPointOfNoReturn,
    boolean paused,
    boolean tainted,
    boolean cordoned,
    String replacementName,
    LaunchedNode replacement,
    long graceEndsAtMillis,
    List<String> evicted,
    List<String> podsLeft,
    Blocker blocker,
    Interruption interruption,
    OperatorRequest forceDrain,
    boolean approved,
    List<SurgeOutcome> surges) {

  public ReplacementState {
    surges = surges == null ? List.of() : List.copyOf(surges);
    evicted = evicted == null ? List.of() : List.copyOf(evicted);
    podsLeft = podsLeft == null ? List.of() : List.copyOf(podsLeft);
  }

  public static ReplacementState initial() {
    return new ReplacementState(ReplacementPhase.PENDING, false, false, false, false, null, null, Long.MAX_VALUE,
        List.of(), List.of(), null, null, null, false, List.of());
  }

  public ReplacementState withPhase(ReplacementPhase next) {
    return new ReplacementState(next, pastPointOfNoReturn || next.pastPointOfNoReturn(), paused, tainted, cordoned,
        replacementName, replacement, graceEndsAtMillis, evicted, podsLeft, blocker, interruption, forceDrain, approved, surges);
  }

  public ReplacementState withPaused(boolean value) {
    return new ReplacementState(phase, pastPointOfNoReturn, value, tainted, cordoned, replacementName, replacement,
        graceEndsAtMillis, evicted, podsLeft, blocker, interruption, forceDrain, approved, surges);
  }

  public ReplacementState withNodeChanges(boolean taintedNow, boolean cordonedNow) {
    return new ReplacementState(phase, pastPointOfNoReturn, paused, taintedNow, cordonedNow, replacementName, replacement,
        graceEndsAtMillis, evicted, podsLeft, blocker, interruption, forceDrain, approved, surges);
  }

  public ReplacementState withReplacement(String name, LaunchedNode launched) {
    return new ReplacementState(phase, pastPointOfNoReturn, paused, tainted, cordoned, name, launched,
        graceEndsAtMillis, evicted, podsLeft, blocker, interruption, forceDrain, approved, surges);
  }

  public ReplacementState withGraceEndsAt(long millis) {
    return new ReplacementState(phase, pastPointOfNoReturn, paused, tainted, cordoned, replacementName, replacement,
        millis, evicted, podsLeft, blocker, interruption, forceDrain, approved, surges);
  }

  /** After a drain pass: what it evicted is added, what is left replaces the last pass's. */
  public ReplacementState withDrainPass(List<String> newlyEvicted, List<String> left) {
    List<String> all = new ArrayList<>(evicted);
    all.addAll(newlyEvicted);
    return new ReplacementState(phase, pastPointOfNoReturn, paused, tainted, cordoned, replacementName, replacement,
        graceEndsAtMillis, all, left, blocker, interruption, forceDrain, approved, surges);
  }

  public ReplacementState withBlocker(Blocker value) {
    return new ReplacementState(phase, pastPointOfNoReturn, paused, tainted, cordoned, replacementName, replacement,
        graceEndsAtMillis, evicted, podsLeft, value, interruption, forceDrain, approved, surges);
  }

  public ReplacementState withInterruption(Interruption value) {
    return new ReplacementState(phase, pastPointOfNoReturn, paused, tainted, cordoned, replacementName, replacement,
        graceEndsAtMillis, evicted, podsLeft, blocker, value, forceDrain, approved, surges);
  }

  public ReplacementState withForceDrain(OperatorRequest request) {
    return new ReplacementState(phase, pastPointOfNoReturn, paused, tainted, cordoned, replacementName, replacement,
        graceEndsAtMillis, evicted, podsLeft, blocker, interruption, request, approved, surges);
  }

  public ReplacementState withApproved(boolean value) {
    return new ReplacementState(phase, pastPointOfNoReturn, paused, tainted, cordoned, replacementName, replacement,
        graceEndsAtMillis, evicted, podsLeft, blocker, interruption, forceDrain, value, surges);
  }

  /** The last surge answer for {@code pod}, or null. */
  public SurgeOutcome surgeOf(String pod) {
    return surges.stream().filter(s -> s.pod().equals(pod)).findFirst().orElse(null);
  }

  /** Keeps {@code outcome} as the last surge answer for its pod. */
  public ReplacementState withSurge(SurgeOutcome outcome) {
    List<SurgeOutcome> next = new ArrayList<>(surges.stream().filter(s -> !s.pod().equals(outcome.pod())).toList());
    next.add(outcome);
    return new ReplacementState(phase, pastPointOfNoReturn, paused, tainted, cordoned, replacementName, replacement,
        graceEndsAtMillis, evicted, podsLeft, blocker, interruption, forceDrain, approved, next);
  }
}

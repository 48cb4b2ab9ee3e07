package dev.farrier.workflows.upgrade;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.farrier.workflows.activities.RolloutClaim;
import dev.farrier.workflows.replacement.OperatorRequest;
import java.util.List;

/**
 * Everything a fleet upgrade knows, in one record: what the query shows and what continue-as-new carries, and (in
 * {@link #thisRun}) what one run knows and the next starts afresh.
 *
 * @param claim          what taking the NodePools found (the NodePools, their EC2NodeClass, the previous and target
 *                       images, the worker's settings); null before
 * @param phase          where it is
 * @param batch          the number of the batch running or last run (0 before the first, 1 the canary); with
 *                       {@code rolling}, each refill of free slots counts as one
 * @param total          drifted nodes to roll, counted at the first batch
 * @param replaced       nodes replaced so far
 * @param failures       node replacements that failed so far
 * @param launched       the NodeClaims this rollout's replacements launched (rolled back if it fails)
 * @param current        the NodeClaims of the batch in flight (with {@code rolling}, of the slots)
 * @param blocker        what holds it now (a budget, do-not-disrupt, the gate, an approval, a PDB), null when nothing
 * @param blockedSinceMillis when {@code blocker} started holding it
 * @param cause          why it stopped, once it failed or was aborted
 * @param carried        with {@code rolling}: the slots in flight when the run before continued as new, for this run
 *                       to take over; empty once it has
 * @param thisRun        what this run only knows: never serialized, so continue-as-new carries exactly the fields above
 */
public record UpgradeState(
    RolloutClaim claim,
    UpgradePhase phase,
    int batch,
    int total,
    int replaced,
    int failures,
    List<String> launched,
    List<String> current,
    String blocker,
    Long blockedSinceMillis,
    String cause,
    List<CarriedSlot> carried,
    @JsonIgnore ThisRun thisRun) {
  public UpgradeState {
    launched = launched == null ? List.of() : List.copyOf(launched);
    current = current == null ? List.of() : List.copyOf(current);
    carried = carried == null ? List.of() : List.copyOf(carried);
    thisRun = thisRun == null ? ThisRun.FRESH : thisRun;
  }

  /**
   * What one run knows and the next run starts afresh (an Update is answered by the run it reached; the next run
   * counts what remains at its first plan).
   *
   * @param remaining     drifted nodes left at the last plan (0 before this run's first)
   * @param abort         an operator's {@code Abort}, null before
   * @param approval      an operator's {@code Approve} after the canary, null before
   * @param stopping      with {@code rolling}: why the rollout stops, once it does, while the replacements in flight
   *                      finish; null before
   * @param abortPassedOn with {@code rolling}: the abort was passed on to the replacements in flight
   * @param started       with {@code rolling}: the replacements this run started (see
   *                      {@link NodePoolUpgradeWorkflowImpl#MAX_STARTS_PER_RUN})
   */
  record ThisRun(int remaining, OperatorRequest abort, OperatorRequest approval, RolloutStopped.Why stopping,
      boolean abortPassedOn, int started) {
    static final ThisRun FRESH = new ThisRun(0, null, null, null, false, 0);

    ThisRun withRemaining(int n) {
      return new ThisRun(n, abort, approval, stopping, abortPassedOn, started);
    }

    ThisRun withAbort(OperatorRequest request) {
      return new ThisRun(remaining, request, approval, stopping, abortPassedOn, started);
    }

    ThisRun withApproval(OperatorRequest request) {
      return new ThisRun(remaining, abort, request, stopping, abortPassedOn, started);
    }

    ThisRun withStopping(RolloutStopped.Why why) {
      return new ThisRun(remaining, abort, approval, why, abortPassedOn, started);
    }

    ThisRun withAbortPassedOn() {
      return new ThisRun(remaining, abort, approval, stopping, true, started);
    }

    ThisRun withStarted(int more) {
      return new ThisRun(remaining, abort, approval, stopping, abortPassedOn, started + more);
    }
  }

  static UpgradeState initial() {
    return new UpgradeState(null, UpgradePhase.CLAIMING, 0, 0, 0, 0, List.of(), List.of(), null, null, null, List.of(),
        ThisRun.FRESH);
  }

  UpgradeState withClaim(RolloutClaim c) {
    return new UpgradeState(c, phase, batch, total, replaced, failures, launched, current, blocker, blockedSinceMillis,
        cause, carried, thisRun);
  }

  UpgradeState withPhase(UpgradePhase p) {
    return new UpgradeState(claim, p, batch, total, replaced, failures, launched, current, blocker, blockedSinceMillis,
        cause, carried, thisRun);
  }

  UpgradeState withBatch(int number, List<String> claims) {
    return new UpgradeState(claim, phase, number, total, replaced, failures, launched, claims, blocker, blockedSinceMillis,
        cause, carried, thisRun);
  }

  UpgradeState withTotal(int t) {
    return new UpgradeState(claim, phase, batch, t, replaced, failures, launched, current, blocker, blockedSinceMillis,
        cause, carried, thisRun);
  }

  UpgradeState withOutcomes(int newlyReplaced, int newlyFailed, List<String> newlyLaunched) {
    List<String> all = new java.util.ArrayList<>(launched);
    all.addAll(newlyLaunched);
    return new UpgradeState(claim, phase, batch, total, replaced + newlyReplaced, failures + newlyFailed, all, List.of(),
        blocker, blockedSinceMillis, cause, carried, thisRun);
  }

  /** Sets what holds the rollout; the time it started holding is kept while the blocker stays the same. */
  UpgradeState withBlocker(String b, long nowMillis) {
    Long since = b == null ? null : b.equals(blocker) && blockedSinceMillis != null ? blockedSinceMillis : nowMillis;
    return new UpgradeState(claim, phase, batch, total, replaced, failures, launched, current, b, since, cause, carried,
        thisRun);
  }

  UpgradeState withCarried(List<CarriedSlot> slots) {
    return new UpgradeState(claim, phase, batch, total, replaced, failures, launched, current, blocker, blockedSinceMillis,
        cause, slots, thisRun);
  }

  UpgradeState withCause(String c) {
    return new UpgradeState(claim, phase, batch, total, replaced, failures, launched, current, blocker, blockedSinceMillis,
        c, carried, thisRun);
  }

  UpgradeState withThisRun(ThisRun run) {
    return new UpgradeState(claim, phase, batch, total, replaced, failures, launched, current, blocker, blockedSinceMillis,
        cause, carried, run);
  }
}

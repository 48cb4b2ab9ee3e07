package dev.farrier.workflows.replacement;

import static dev.farrier.workflows.replacement.ReplacementPhase.DRAINING;
import static dev.farrier.workflows.replacement.ReplacementRun.LOG;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.workflows.EventReasons;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.Waits;
import dev.farrier.workflows.activities.DrainRequest;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.SurgeOutcome;
import dev.farrier.workflows.activities.TerminateInstanceRequest;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.List;

/**
 * The drain step: passes of the Eviction API ({@code drainStep}) until no pod is left, backing off while nothing
 * moves, PDBs bypassed once the terminationGracePeriod ends or an operator forces it. The decisions are
 * {@link DrainPolicy}'s; this loop acts on them. A pause or abort is honoured between passes, and a drain blocked for
 * long continues as new with the whole {@link ReplacementState}.
 */
final class Drain {
  /** About 11 history events a blocked pass: a few thousand events per run, far below Temporal's limits. */
  static final int MAX_DRAIN_PASSES_PER_RUN = 200;

  private final ReplacementRun run;
  private final ReplacementLaunch launch;
  private final Surge surge;

  Drain(ReplacementRun run, ReplacementLaunch launch) {
    this.run = run;
    this.launch = launch;
    this.surge = new Surge(run);
  }

  /** Drains the node, if there is one; returns once it is empty. */
  void run() {
    if (!run.hasNode()) {
      return;
    }
    DisruptionCommand command = run.command();
    boolean resumedDrain = run.state().phase() == DRAINING;
    run.enter(DRAINING);
    long firstWait = Math.max(1, run.input().drainPollSeconds());
    long maxWait = Math.max(firstWait, run.input().drainPollMaxSeconds());
    if (!resumedDrain && !run.forceful()) {
      run.update(run.state().withGraceEndsAt(DrainPolicy.graceEndsAt(command.terminationGracePeriodSeconds(),
          Workflow.currentTimeMillis())));
    }
    long waitSeconds = firstWait;
    long lastInstanceCheck = Workflow.currentTimeMillis();
    boolean instanceGone = false;
    for (int pass = 1; ; pass++) {
      if (pass > MAX_DRAIN_PASSES_PER_RUN || Workflow.getInfo().isContinueAsNewSuggested()) {
        continueAsNew();
      }
      run.checkpoint();
      boolean bypassPdb = DrainPolicy.bypassPdb(Workflow.currentTimeMillis(), run.state().graceEndsAtMillis(),
          run.state().forceDrain() != null);
      DrainStatus status = run.nodes().drainStep(new DrainRequest(run.cluster(), command.nodeName(), command.nodeClaim(),
          bypassPdb, !run.urgent(), instanceGone, true, command.nodePool()));
      run.update(run.state().withDrainPass(status.evicted(), status.remaining()));
      if (status.drained()) {
        run.setBlocker(null);
        return;
      }
      if (!instanceGone && command.instanceId() != null
          && DrainPolicy.checkInstance(Workflow.currentTimeMillis(), lastInstanceCheck, run.urgent())) {
        lastInstanceCheck = Workflow.currentTimeMillis();
        instanceGone = instanceConfirmedGone();
        if (instanceGone) {
          // An instance that is gone is not a node to drain: its pods are dead; release them now, PDBs or not.
          run.setBlocker(null);
          StructuredLog.info(LOG, "instance gone, releasing its pods", "nodeclaim", command.nodeClaim(), "node",
              command.nodeName(), "instance", command.instanceId(), "podsLeft", status.remaining().size());
          run.recordOnNodeAndClaim(EventReasons.WARNING, EventReasons.INSTANCE_GONE, "instance " + command.instanceId()
              + " is gone: its " + status.remaining().size() + " pod(s) are released at once, not drained");
          continue;
        }
      }
      List<SurgeOutcome> surges = surge.after(status);
      reportBlocker(status, surges);
      // A surge in flight is looked at again soon: its old pod leaves as soon as the new one is Ready.
      boolean moving = !status.evicted().isEmpty() || surges.stream().anyMatch(SurgeOutcome::surging);
      var wait = DrainPolicy.nextWait(waitSeconds, firstWait, maxWait, moving, run.urgent(),
          Workflow.currentTimeMillis(), run.state().graceEndsAtMillis());
      if (wait.millis() > 0) {
        ReplacementState before = run.state();
        Waits.awaitOrTimeout(Duration.ofMillis(wait.millis()), () -> run.abortRequested()
            || run.interruptionUnnoticed() || run.state().forceDrain() != before.forceDrain());
      }
      waitSeconds = wait.nextSeconds();
    }
  }

  /** The cloud says the instance is terminated or unknown; a failed read proves nothing. */
  private boolean instanceConfirmedGone() {
    DisruptionCommand command = run.command();
    try {
      return run.claims().instanceState(new TerminateInstanceRequest(run.cluster(), command.nodeClaim(),
          command.instanceId())).gone();
    } catch (ActivityFailure failure) {
      StructuredLog.warn(LOG, "instance state unknown, draining on", "nodeclaim", command.nodeClaim(), "instance",
          command.instanceId(), "error", Failures.reason(failure));
      return false;
    }
  }

  /** Names a new blocker in the search attributes, the log and Events on the node (and its claim); not one per pass. */
  private void reportBlocker(DrainStatus status, List<SurgeOutcome> surges) {
    DisruptionCommand command = run.command();
    Blocker previous = run.state().blocker();
    Blocker next = DrainPolicy.blocker(status, surges, Workflow.currentTimeMillis(), previous);
    run.setBlocker(next);
    if (next != null && !next.sameAs(previous)) {
      StructuredLog.info(LOG, "drain blocked", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
          "blockedBy", next.summary(), "pods", next.pods(), "podsLeft", status.remaining().size());
      if (DrainPolicy.onlySurgesInFlight(status, surges)) {
        return; // the surge's own Events (SurgeStarted) say what the drain waits for: no Warning for a normal surge
      }
      run.recordOnNodeAndClaim(EventReasons.WARNING, EventReasons.DRAIN_BLOCKED, "drain blocked by " + next.summary()
          + "; held: " + String.join(", ", next.pods()) + "; " + status.remaining().size() + " pod(s) left");
    } else if (next == null && previous != null && !status.drained()) {
      StructuredLog.info(LOG, "drain unblocked", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
          "was", previous.summary());
    }
  }

  /**
   * Continues as new with the whole state, so a drain blocked for days keeps a bounded history. An action that
   * arrived meanwhile is handled first: an abort rolls back here rather than being carried.
   */
  private void continueAsNew() {
    Workflow.await(Workflow::isEveryHandlerFinished);
    run.checkpoint();
    launch.collect();
    ReplacementState state = run.state();
    StructuredLog.info(LOG, "drain continues as new", "nodeclaim", run.command().nodeClaim(), "node",
        run.command().nodeName(), "podsLeft", state.podsLeft().size(), "blockedBy",
        state.blocker() == null ? null : state.blocker().summary());
    ReplacementState carried = run.urgent() ? state : state.withInterruption(null);
    Workflow.continueAsNew(run.input().continuedWith(carried));
  }
}

package dev.farrier.workflows.replacement;

import static dev.farrier.workflows.replacement.ReplacementRun.LOG;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.SurgeOutcome;
import dev.farrier.workflows.activities.SurgeRequest;
import io.temporal.failure.ActivityFailure;
import java.util.ArrayList;
import java.util.List;

/**
 * The drain's surges: after a pass, each pod a PodDisruptionBudget refused whose workload opted in
 * ({@link DrainStatus#surgeable()}) is handed to the {@code surge} activity, which restarts its Deployment once (its
 * mark on the Deployment makes later calls report the surge rather than start another) or refuses with a reason. The
 * answers are kept in {@link ReplacementState#surges()} (carried across continue-as-new) for the blocker and for the
 * next request, so an answer's Event is recorded once. Nothing here evicts: the Deployment controller removes the old
 * pod once its new one is Ready, and the next pass sees it go.
 */
final class Surge {
  private final ReplacementRun run;

  Surge(ReplacementRun run) {
    this.run = run;
  }

  /** The surge answers for this pass's candidates (none when the pass named none). */
  List<SurgeOutcome> after(DrainStatus status) {
    DisruptionCommand command = run.command();
    List<SurgeOutcome> outcomes = new ArrayList<>();
    for (String pod : status.surgeable()) {
      SurgeOutcome previous = run.state().surgeOf(pod);
      SurgeOutcome outcome;
      try {
        outcome = run.nodes().surge(new SurgeRequest(run.cluster(), command.nodeName(), command.nodeClaim(),
            command.nodePool(), pod, previous));
      } catch (ActivityFailure failure) {
        // A surge that cannot be asked about is not started again blindly: the last answer stands, else the PDB does.
        StructuredLog.warn(LOG, "surge unknown", "nodeclaim", command.nodeClaim(), "pod", pod, "error", Failures.reason(failure));
        outcome = previous != null ? previous
            : new SurgeOutcome(pod, null, SurgeOutcome.Result.REFUSED, "cannot read it: " + Failures.reason(failure));
      }
      if (!outcome.sameAs(previous)) {
        StructuredLog.info(LOG, "surge", "nodeclaim", command.nodeClaim(), "node", command.nodeName(), "pod", pod,
            "deployment", outcome.deployment(), "result", outcome.result(), "reason", outcome.reason());
      }
      run.update(run.state().withSurge(outcome));
      outcomes.add(outcome);
    }
    return outcomes;
  }
}

package dev.farrier.workflows.replacement;

import static dev.farrier.workflows.replacement.ReplacementRun.LOG;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.SurgeOutcome;
import dev.farrier.workflows.activities.SurgePass;
import dev.farrier.workflows.activities.SurgeRequest;
import io.temporal.failure.ActivityFailure;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The drain's surges: after a pass, each pod a PodDisruptionBudget refused whose workload opted in
 * ({@link DrainStatus#surgeable()}) is handed to the {@code surge} activity (one call a pass), which restarts its Deployment once (its
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

  /**
   * The surge answers for this pass's candidates (none when the pass named none), from one activity call. A pod the
   * call did not get to, or every pod when the call failed, keeps its last answer; one never answered is left to its
   * PDB (a failed call names it refused, so the blocker says why).
   */
  List<SurgeOutcome> after(DrainStatus status) {
    if (status.surgeable().isEmpty()) {
      return List.of();
    }
    DisruptionCommand command = run.command();
    List<SurgeRequest> requests = status.surgeable().stream().map(pod -> new SurgeRequest(run.cluster(), command.nodeName(),
        command.nodeClaim(), command.nodePool(), pod, run.state().surgeOf(pod))).toList();
    Map<String, SurgeOutcome> answered = new HashMap<>();
    String failed = null;
    try {
      run.nodes().surge(new SurgePass(requests)).outcomes().forEach(o -> answered.put(o.pod(), o));
    } catch (ActivityFailure failure) {
      // A surge that cannot be asked about is not started again blindly: the last answer stands, else the PDB does.
      failed = Failures.reason(failure);
      StructuredLog.warn(LOG, "surge unknown", "nodeclaim", command.nodeClaim(), "pods", status.surgeable(), "error", failed);
    }
    List<SurgeOutcome> outcomes = new ArrayList<>();
    for (SurgeRequest request : requests) {
      SurgeOutcome previous = request.previous();
      SurgeOutcome outcome = answered.get(request.pod());
      if (outcome == null) {
        outcome = previous != null || failed == null ? previous
            : new SurgeOutcome(request.pod(), null, SurgeOutcome.Result.REFUSED, "cannot read it: " + failed);
      }
      if (outcome == null) {
        continue;
      }
      if (!outcome.sameAs(previous)) {
        StructuredLog.info(LOG, "surge", "nodeclaim", command.nodeClaim(), "node", command.nodeName(), "pod", request.pod(),
            "deployment", outcome.deployment(), "result", outcome.result(), "reason", outcome.reason());
      }
      run.update(run.state().withSurge(outcome));
      outcomes.add(outcome);
    }
    return outcomes;
  }
}

package dev.farrier.workflows.upgrade;

import static dev.farrier.workflows.upgrade.UpgradePhase.GATE;
import static dev.farrier.workflows.upgrade.UpgradePhase.SOAKING;

import dev.farrier.workflows.Waits;
import dev.farrier.workflows.activities.HealthObservation;
import dev.farrier.workflows.activities.HealthRequest;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The health gate as it runs: looks at the new nodes and the moved pods until they are Ready (at most the gate
 * timeout), then through the soak time; each look decided by {@link HealthGate}. The {@code shared} gate is the
 * rollout's one step (a batch's): it shows its phases and blocker, and an abort stops it at once; otherwise it is one
 * replacement's among others ({@code --rolling}), which shows nothing of its own and ends quietly once the rollout is
 * stopping, at its next look.
 */
final class GateWatch {
  /** How often the gate looks at the new nodes and the moved pods. */
  static final Duration GATE_INTERVAL = Duration.ofSeconds(10);

  private final Rollout rollout;

  GateWatch(Rollout rollout) {
    this.rollout = rollout;
  }

  /** Returns null when they passed (or a slot's gate ended as the rollout stops), or why not, starting with {@code what}. */
  String gate(HealthRequest request, String what, boolean shared) {
    UpgradeInput input = rollout.input;
    if (shared) {
      rollout.enter(GATE);
    }
    long deadline = Workflow.currentTimeMillis() + input.gateTimeoutSeconds() * 1000;
    HealthObservation seen;
    while (true) {
      if (ended(shared)) {
        return null;
      }
      seen = rollout.activities.observeHealth(request);
      HealthGate.Verdict verdict = HealthGate.check(request, seen, null, !shared);
      if (verdict.kind() == HealthGate.Kind.FAILED) {
        return what + " failed: " + verdict.detail();
      }
      if (verdict.kind() == HealthGate.Kind.HEALTHY) {
        break;
      }
      if (Workflow.currentTimeMillis() >= deadline) {
        return what + " timed out after " + input.gateTimeoutSeconds() + "s: " + verdict.detail();
      }
      if (shared) {
        rollout.setBlocker("gate: " + verdict.detail());
      }
      pause(GATE_INTERVAL, shared);
    }
    if (shared) {
      rollout.setBlocker(null);
    }
    if (input.soakSeconds() == 0) {
      return null;
    }
    if (shared) {
      rollout.enter(SOAKING);
    }
    Map<String, Integer> restarts = new HashMap<>();
    seen.pods().forEach(p -> restarts.put(p.key(), p.restarts()));
    long soakEnds = Workflow.currentTimeMillis() + input.soakSeconds() * 1000;
    while (Workflow.currentTimeMillis() < soakEnds) {
      pause(Duration.ofMillis(Math.min(GATE_INTERVAL.toMillis(), soakEnds - Workflow.currentTimeMillis())), shared);
      if (ended(shared)) {
        return null;
      }
      HealthGate.Verdict verdict = HealthGate.check(request, rollout.activities.observeHealth(request), restarts, !shared);
      if (verdict.kind() == HealthGate.Kind.FAILED) {
        return what + " failed during the soak: " + verdict.detail();
      }
      if (verdict.kind() == HealthGate.Kind.WAITING && Workflow.currentTimeMillis() >= soakEnds) {
        return what + " failed: not Ready at the end of the soak: " + verdict.detail();
      }
    }
    return null;
  }

  /**
   * Between a gate's looks. The shared gate wakes on an abort; one replacement's gate sleeps and sees the rollout's stop
   * or an abort at its next look, at most {@link #GATE_INTERVAL} later, so it never cancels a timer: when one gate stopped
   * the rollout while another's timer was firing, Temporal's time-skipping test server refused that cancel and left the
   * run without a workflow task (temporalio/sdk-java#2606).
   */
  private void pause(Duration interval, boolean shared) {
    if (shared) {
      Waits.awaitOrTimeout(interval, rollout::abortRequested);
    } else {
      Workflow.sleep(interval);
    }
  }

  /** A shared gate throws on an abort; one replacement's gate ends once the rollout is stopping, whatever the cause. */
  private boolean ended(boolean shared) {
    if (shared) {
      rollout.checkAbort();
      return false;
    }
    return rollout.thisRun().stopping() != null || rollout.abortRequested();
  }
}

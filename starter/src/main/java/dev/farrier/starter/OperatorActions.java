package dev.farrier.starter;

import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.replacement.OperatorRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The operator's actions on a replacement, one per validated Update of {@link NodeReplacementWorkflow}. Each prints the
 * workflow's answer; a refusal exits 3 with the validator's message.
 */
final class OperatorActions {
  private OperatorActions() {}

  abstract static class Action extends ReplacementCommand {
    @Option(names = "--by", defaultValue = "${env:USER:-farrier-cli}", description = "who asks, recorded with the reason (default ${DEFAULT-VALUE})")
    String by;

    abstract String reason();

    abstract String send(NodeReplacementWorkflow replacement, OperatorRequest request);

    @Override
    public Integer call() {
      var request = new OperatorRequest(reason(), by);
      String answer = onReplacement(replacement -> send(replacement, request));
      out().println(answer);
      return ExitCodes.DONE;
    }
  }

  /** An action whose reason is optional. */
  abstract static class OptionalReason extends Action {
    @Option(names = "--reason", description = "why, recorded in the workflow's history")
    String reason;

    @Override
    String reason() {
      return reason;
    }
  }

  /** An action whose reason is recorded on the node: picocli refuses it without one (exit code 2). */
  abstract static class RequiredReason extends Action {
    @Option(names = "--reason", required = true, description = "why, recorded in the history and as an Event on the node")
    String reason;

    @Override
    String reason() {
      return reason;
    }
  }

  @Command(name = "pause", description = "Pause a replacement before its next step (a drain holds between passes).")
  static final class Pause extends OptionalReason {
    @Override
    String send(NodeReplacementWorkflow replacement, OperatorRequest request) {
      return replacement.pauseReplacement(request);
    }
  }

  @Command(name = "resume", description = "Resume a paused replacement.")
  static final class Resume extends OptionalReason {
    @Override
    String send(NodeReplacementWorkflow replacement, OperatorRequest request) {
      return replacement.resumeReplacement(request);
    }
  }

  @Command(name = "abort", description = "Abort a replacement and roll it back (untaint, uncordon, remove a replacement "
      + "still launching); refused once its instance is being terminated.")
  static final class Abort extends RequiredReason {
    @Override
    String send(NodeReplacementWorkflow replacement, OperatorRequest request) {
      return replacement.abortReplacement(request);
    }
  }

  @Command(name = "retry", description = "Run a failed step again (phase AwaitingRetry).")
  static final class Retry extends OptionalReason {
    @Override
    String send(NodeReplacementWorkflow replacement, OperatorRequest request) {
      return replacement.retryReplacement(request);
    }
  }

  @Command(name = "force-drain", description = "Delete the pods left on a draining node past their "
      + "PodDisruptionBudgets and do-not-disrupt annotations.")
  static final class ForceDrain extends RequiredReason {
    @Override
    String send(NodeReplacementWorkflow replacement, OperatorRequest request) {
      return replacement.forceDrain(request);
    }
  }

  @Command(name = "approve", description = "Let a replacement waiting for approval (phase AwaitingApproval) cordon and "
      + "drain the old node.")
  static final class Approve extends OptionalReason {
    @Override
    String send(NodeReplacementWorkflow replacement, OperatorRequest request) {
      return replacement.approve(request);
    }
  }
}

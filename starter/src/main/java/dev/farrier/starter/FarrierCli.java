package dev.farrier.starter;

import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.activities.CandidateDecision;
import dev.farrier.workflows.reconciler.ClusterReconcilerWorkflow;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code farrier}: the operator's and CI's handle on Farrier's workflows. Every command names its target by the
 * workflow ids Farrier uses ({@code reconciler/<cluster>}, {@code disrupt/<nodeclaim>}).
 */
@Command(name = "farrier", mixinStandardHelpOptions = true, version = "farrier 0.1.0",
    description = "Inspect and steer Farrier's node replacements.",
    subcommands = {FarrierCli.Plan.class, FarrierCli.Status.class, FarrierCli.Pause.class, FarrierCli.Resume.class, FarrierCli.Abort.class})
public final class FarrierCli {
  @Option(names = "--address", scope = CommandLine.ScopeType.INHERIT, defaultValue = "${env:FARRIER_TEMPORAL_ADDRESS:-127.0.0.1:7233}", description = "Temporal frontend (default ${DEFAULT-VALUE})")
  String address;

  @Option(names = "--namespace", scope = CommandLine.ScopeType.INHERIT, defaultValue = "${env:FARRIER_TEMPORAL_NAMESPACE:-default}", description = "Temporal namespace (default ${DEFAULT-VALUE})")
  String namespace;

  @Option(names = "--cluster", scope = CommandLine.ScopeType.INHERIT, defaultValue = "${env:FARRIER_CLUSTER_NAME:-sandbox}", description = "cluster name (default ${DEFAULT-VALUE})")
  String cluster;

  /** Set by tests to run against Temporal's test environment instead of a frontend address. */
  Function<FarrierCli, WorkflowClient> clientFactory = FarrierCli::connect;

  private static WorkflowClient connect(FarrierCli cli) {
    var stubs = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder().setTarget(cli.address).build());
    return WorkflowClient.newInstance(stubs, WorkflowClientOptions.newBuilder().setNamespace(cli.namespace).build());
  }

  public static void main(String[] args) {
    System.exit(commandLine(new FarrierCli()).execute(args));
  }

  static CommandLine commandLine(FarrierCli cli) {
    var cl = new CommandLine(cli);
    cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      commandLine.getErr().println("farrier: " + e.getMessage());
      return 1;
    });
    return cl;
  }

  abstract static class Sub implements Callable<Integer> {
    @CommandLine.ParentCommand
    FarrierCli parent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    PrintWriter out() {
      return spec.commandLine().getOut();
    }

    WorkflowClient client() {
      return parent.clientFactory.apply(parent);
    }

  }

  /** A command on the replacement {@code disrupt/<NODECLAIM>}. */
  abstract static class OnReplacement extends Sub {
    @Parameters(paramLabel = "NODECLAIM", description = "the NodeClaim whose replacement to act on")
    String nodeClaim;

    NodeReplacementWorkflow replacement() {
      return client().newWorkflowStub(NodeReplacementWorkflow.class, WorkflowIds.disruption(nodeClaim));
    }
  }

  @Command(name = "plan", description = "The reconciler's last disruption plan: why each node is or is not being disrupted.")
  static final class Plan extends Sub {
    @Override
    public Integer call() {
      var status = client().newWorkflowStub(ClusterReconcilerWorkflow.class, WorkflowIds.reconciler(parent.cluster)).status();
      out().printf("reconciler/%s: %d pending pods, provisioning %s, replacements started %s%n",
          parent.cluster, status.pendingPods(), status.provisioningInFlight(), status.replacementsStarted());
      for (var c : status.cooldowns()) {
        out().printf("%s: last replacement failed (%d in a row), next try after %s%n", c.nodeClaim(), c.failures(),
            Instant.ofEpochMilli(c.untilMillis()));
      }
      if (status.lastPlan() == null) {
        out().println("no disruption plan yet");
        return 0;
      }
      for (CandidateDecision d : status.lastPlan().decisions()) {
        out().printf("%-40s %-45s %-8s %s%n", d.nodeClaim(), d.nodeName(), d.disrupt() ? "DISRUPT" : "keep", d.reason());
      }
      return 0;
    }
  }

  @Command(name = "status", description = "Progress of the replacement of a NodeClaim: phase, pods left, what blocks it.")
  static final class Status extends OnReplacement {
    @Override
    public Integer call() {
      var p = replacement().progress();
      out().printf("disrupt/%s node=%s phase=%s%s replacement=%s%n", nodeClaim, p.nodeName(), p.phase(),
          p.paused() ? " (paused)" : "", p.replacement());
      out().printf("pods left: %s%nevicted: %s%n", p.podsLeft(), p.evicted());
      if (p.blockedBy() != null) {
        out().printf("blocked by: %s%n", p.blockedBy());
      }
      return 0;
    }
  }

  @Command(name = "pause", description = "Pause a replacement before its next step.")
  static final class Pause extends OnReplacement {
    @Override
    public Integer call() {
      replacement().pause();
      out().printf("paused disrupt/%s%n", nodeClaim);
      return 0;
    }
  }

  @Command(name = "resume", description = "Resume a paused replacement.")
  static final class Resume extends OnReplacement {
    @Override
    public Integer call() {
      replacement().resume();
      out().printf("resumed disrupt/%s%n", nodeClaim);
      return 0;
    }
  }

  @Command(name = "abort", description = "Abort a replacement and roll it back (untaint, uncordon, remove a replacement still launching).")
  static final class Abort extends OnReplacement {
    @Option(names = "--reason", defaultValue = "aborted by operator", description = "recorded on the node and in the workflow")
    String reason;

    @Override
    public Integer call() {
      replacement().abort(reason);
      out().printf("abort requested for disrupt/%s: %s%n", nodeClaim, reason);
      return 0;
    }
  }
}

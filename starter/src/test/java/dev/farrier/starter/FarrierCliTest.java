package dev.farrier.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.replacement.ReplacementInput;
import dev.farrier.workflows.replacement.ReplacementProgress;
import dev.farrier.workflows.replacement.ReplacementResult;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.workflow.Workflow;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FarrierCliTest {
  /** Stands in for the real replacement: keeps the signals it got so the test can see what the CLI sent. */
  public static class RecordingReplacement implements NodeReplacementWorkflow {
    private boolean paused;
    private String aborted;

    @Override
    public ReplacementResult replace(ReplacementInput input) {
      Workflow.await(() -> aborted != null);
      return new ReplacementResult("nc-1", "Aborted", null, null, 0);
    }

    @Override
    public void pause() {
      paused = true;
    }

    @Override
    public void resume() {
      paused = false;
    }

    @Override
    public void interrupted(dev.farrier.workflows.replacement.Interruption interruption) {}

    @Override
    public void abort(String reason) {
      aborted = reason;
    }

    @Override
    public ReplacementProgress progress() {
      return new ReplacementProgress("nc-1", "ip-10-0-1-1.ec2.internal", "Draining", "nc-2",
          List.of("default/inflate-a"), List.of("default/inflate-b"), aborted != null ? "aborted: " + aborted : "PodDisruptionBudget default/inflate-pdb", paused);
    }
  }

  private TestWorkflowEnvironment env;
  private WorkflowClient client;

  @BeforeEach
  void start() {
    env = TestWorkflowEnvironment.newInstance();
    env.newWorker("farrier").registerWorkflowImplementationTypes(RecordingReplacement.class);
    env.start();
    client = env.getWorkflowClient();
    var stub = client.newWorkflowStub(NodeReplacementWorkflow.class,
        WorkflowOptions.newBuilder().setWorkflowId(WorkflowIds.disruption("nc-1")).setTaskQueue("farrier").build());
    WorkflowClient.start(stub::replace, new ReplacementInput("sandbox", null, null, 2, 30));
  }

  @AfterEach
  void stop() {
    env.close();
  }

  private String run(String... args) {
    var cli = new FarrierCli();
    cli.clientFactory = ignored -> client;
    var out = new StringWriter();
    var cl = FarrierCli.commandLine(cli);
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(out, true));
    assertEquals(0, cl.execute(args), out::toString);
    return out.toString();
  }

  @Test
  void statusShowsPhasePodsLeftAndWhatBlocks() {
    var out = run("status", "nc-1");
    assertTrue(out.contains("phase=Draining"), out);
    assertTrue(out.contains("default/inflate-a"), out);
    assertTrue(out.contains("blocked by: PodDisruptionBudget default/inflate-pdb"), out);
  }

  @Test
  void pauseAndResumeReachTheWorkflow() {
    run("pause", "nc-1");
    assertTrue(run("status", "nc-1").contains("(paused)"));
    run("resume", "nc-1");
    assertTrue(!run("status", "nc-1").contains("(paused)"));
  }

  @Test
  void abortCarriesTheReasonAndEndsTheWorkflow() {
    run("abort", "nc-1", "--reason", "bad AMI");
    var result = client.newUntypedWorkflowStub(WorkflowIds.disruption("nc-1")).getResult(ReplacementResult.class);
    assertEquals("Aborted", result.outcome());
  }

  @Test
  void globalOptionsMayFollowTheSubcommand() {
    var cli = new FarrierCli();
    cli.clientFactory = ignored -> client;
    FarrierCli.commandLine(cli).parseArgs("status", "nc-1", "--cluster", "prod", "--address", "temporal:7233");
    assertEquals("prod", cli.cluster);
    assertEquals("temporal:7233", cli.address);
  }

  @Test
  void unknownReplacementIsAClearError() {
    var cli = new FarrierCli();
    cli.clientFactory = ignored -> client;
    var out = new StringWriter();
    var cl = FarrierCli.commandLine(cli);
    cl.setErr(new PrintWriter(out, true));
    assertEquals(1, cl.execute("status", "no-such-claim"));
    assertTrue(out.toString().startsWith("farrier: "), out.toString());
  }
}

package dev.farrier.workflows.provisioning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.LaunchedInstance;
import dev.farrier.model.UnschedulablePod;
import dev.farrier.workflows.testing.FakeNodeClaimActivities;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import dev.farrier.workflows.testing.Fixtures;
import io.temporal.api.enums.v1.EventType;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.ApplicationFailure;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ProvisioningWorkflowTest {
  private final FarrierTestEnvironment test = new FarrierTestEnvironment();

  @AfterEach
  void close() {
    test.close();
  }

  @Test
  void launchesEveryClaimAndReportsTheOneThatFailedWithoutFailingTheBatch() {
    UnschedulablePod gpuPod = new UnschedulablePod(Fixtures.pod("gpu"), "no NodePool offers nvidia.com/gpu");
    test.planning.onPlanProvisioning(request -> new ProvisioningPlan(
        List.of(Fixtures.claim("default-ok", "default"), Fixtures.claim("default-nocap", "default")),
        List.of(gpuPod)));
    test.nodeClaims.onLaunchInstance(ref -> {
      if (ref.nodeClaim().equals("default-nocap")) {
        throw ApplicationFailure.newNonRetryableFailure("no capacity", FailureTypes.INSUFFICIENT_CAPACITY);
      }
      return FakeNodeClaimActivities.launched(ref);
    });
    test.start();
    String batchId = WorkflowIds.provisioning(Fixtures.CLUSTER, 7);

    ProvisioningWorkflow workflow = test.newWorkflow(ProvisioningWorkflow.class, batchId);
    ProvisioningResult result = workflow.provision(new ProvisioningInput(Fixtures.CLUSTER, batchId,
            List.of(Fixtures.pod("web-1"), Fixtures.pod("gpu")), Fixtures.LAUNCH));

    assertEquals(List.of("default-ok"), result.launched().stream().map(LaunchedInstance::nodeClaim).toList());
    assertEquals(1, result.failed().size());
    assertTrue(result.failed().getFirst().startsWith("default-nocap: "), result.failed().getFirst());
    assertTrue(result.failed().getFirst().contains("InsufficientCapacity"), result.failed().getFirst());
    assertEquals(List.of(gpuPod), result.unschedulable());
    String runId = WorkflowStub.fromTyped(workflow).getExecution().getRunId();
    assertEquals(batchId + "/" + runId, test.planning.provisioningRequests().getFirst().batchId(),
        "claim names derive from the batch and its run, so a restarted reconciler's batch 7 names other claims");
    assertEquals(1, test.journal.count("deleteNodeClaim default-nocap"), "the failed launch rolled itself back");
    // Each claim ran as its own launch/<nodeclaim> workflow.
    assertEquals(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, statusOf(WorkflowIds.launch("default-ok")));
    assertEquals(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED, statusOf(WorkflowIds.launch("default-nocap")));
  }

  private EventType statusOf(String workflowId) {
    return test.client().fetchHistory(workflowId).getLastEvent().getEventType();
  }
}

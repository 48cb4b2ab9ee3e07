package dev.farrier.workflows.provisioning;

import dev.farrier.model.LaunchSettings;
import dev.farrier.workflows.ActivityStubs;
import dev.farrier.workflows.ChildWorkflowStarts;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.ReconcilerSignals;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.activities.PlanProvisioningRequest;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.LaunchedInstance;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.PodRef;
import dev.farrier.model.UnschedulablePod;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;

/**
 * Plans a batch, then launches every claim as its own {@code launch/<nodeclaim>} child, all in parallel. A failed
 * launch is reported in the result and does not fail the batch: the other claims' pods still get their nodes.
 */
public class ProvisioningWorkflowImpl implements ProvisioningWorkflow {
  private static final Logger log = Workflow.getLogger(ProvisioningWorkflowImpl.class);

  @Override
  public ProvisioningResult provision(ProvisioningInput input) {
    try {
      return plannedAndLaunched(input);
    } finally {
      tellReconciler(input);
    }
  }

  /**
   * Tells the reconciler the batch closed ({@link ProvisioningWorkflow#BATCH_CLOSED_SIGNAL}). Best effort: a batch
   * started without a reconciler (by hand, or one gone since) has nobody to tell, and a reconciler that misses it
   * releases the batch's pods at the carry's release time instead.
   */
  private static void tellReconciler(ProvisioningInput input) {
    tellReconciler(input, BATCH_CLOSED_SIGNAL, input.batchId());
  }

  /** Signals the cluster's reconciler; false (logged) when it could not be told. */
  private static boolean tellReconciler(ProvisioningInput input, String signal, Object payload) {
    return ReconcilerSignals.tell(input.cluster(), signal, payload, "batch", String.valueOf(input.batchId()));
  }

  private ProvisioningResult plannedAndLaunched(ProvisioningInput input) {
    String cluster = input.cluster();
    LaunchSettings settings = input.launchSettings() == null ? LaunchSettings.DEFAULTS : input.launchSettings();
    Workflow.upsertTypedSearchAttributes(
        FarrierSearchAttributes.CLUSTER.valueSet(cluster),
        FarrierSearchAttributes.PHASE.valueSet("Planning"));

    ProvisioningPlan plan = ActivityStubs.planning()
        .planProvisioning(new PlanProvisioningRequest(cluster, namingId(input), input.pods(), input.staticPools()));
    // The planning activity records the FailedScheduling Event on each of these pods (deduplicated there); the
    // reasons are also in the log and in the result.
    for (UnschedulablePod pod : plan.unschedulable()) {
      StructuredLog.warn(log, "pod cannot be scheduled on any NodePool", "pod", pod.pod().key(),
          "batch", input.batchId(), "reason", pod.reason());
    }
    StructuredLog.info(log, "provisioning batch planned", "batch", input.batchId(), "pods", input.pods().size(),
        "nodeclaims", plan.claims().size(), "unschedulable", plan.unschedulable().size());

    Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.PHASE.valueSet("Launching"));
    Map<String, Promise<LaunchedNode>> launches = new LinkedHashMap<>();
    for (NodeClaimRequest claim : plan.claims()) {
      NodeLaunchWorkflow launch = Workflow.newChildWorkflowStub(NodeLaunchWorkflow.class,
          ChildWorkflowStarts.launch(claim.name()));
      launches.put(claim.name(), Async.function(launch::launch, new NodeLaunchInput(cluster, claim, settings)));
    }

    releaseAsLaunchesClose(input, plan.claims(), launches);
    List<LaunchedInstance> launched = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    launches.forEach((name, result) -> {
      try {
        launched.add(result.get().instance());
      } catch (ChildWorkflowFailure failure) {
        String why = ChildWorkflowStarts.alreadyStarted(failure)
            ? "a launch of this nodeclaim already ran or is running"
            : Failures.reason(failure);
        failed.add(name + ": " + why);
      }
    });

    Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.PHASE.valueSet("Done"));
    StructuredLog.info(log, "provisioning batch done", "batch", input.batchId(), "launched", launched.size(),
        "failed", failed.size());
    return new ProvisioningResult(launched, failed, plan.unschedulable());
  }

  /**
   * Waits for the launches, telling the reconciler the pods of those that close while others still run; the pods of the
   * last to close go with the batch ({@link #tellReconciler}). A pod left unbound where it was planned (the kube-scheduler
   * filled that node with other pods) is planned again once its own launch is done, not the batch's slowest.
   */
  private static void releaseAsLaunchesClose(ProvisioningInput input, List<NodeClaimRequest> claims,
      Map<String, Promise<LaunchedNode>> launches) {
    List<NodeClaimRequest> open = new ArrayList<>(claims);
    boolean tell = true;
    while (open.size() > 1) {
      Workflow.await(() -> open.stream().anyMatch(claim -> launches.get(claim.name()).isCompleted()));
      List<PodRef> released = new ArrayList<>();
      for (Iterator<NodeClaimRequest> it = open.iterator(); it.hasNext(); ) {
        NodeClaimRequest claim = it.next();
        if (launches.get(claim.name()).isCompleted()) {
          released.addAll(claim.pods());
          it.remove();
        }
      }
      if (tell && !open.isEmpty() && !released.isEmpty()) {
        tell = tellReconciler(input, LAUNCHES_CLOSED_SIGNAL, new LaunchesClosed(input.batchId(), released));
      }
    }
  }

  /**
   * What claim names derive from: the batch id and this run's id. Batch numbers restart at 0 when a reconciler is
   * started afresh; the run id keeps a new batch from ever naming (and so adopting, or rolling back) a live claim.
   */
  private static String namingId(ProvisioningInput input) {
    return input.batchId() + "/" + Workflow.getInfo().getRunId();
  }
}

package dev.farrier.workflows.testing;

import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.workflows.activities.RecheckDisruptionRequest;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.workflows.activities.PlanProvisioningRequest;
import dev.farrier.workflows.activities.PlanReplacementRequest;
import dev.farrier.workflows.activities.PlanningActivities;
import dev.farrier.model.RolloutBatch;
import dev.farrier.model.RolloutScope;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.ReplacementPlan;
import dev.farrier.model.WorkloadRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A hand-written PlanningActivities. By default: a provisioning plan has no claims, a replacement is a claim named
 * as requested, and disruption plans are empty. Provisioning requests are kept for assertions.
 */
public class FakePlanningActivities implements PlanningActivities {
  private final CallJournal journal;
  private final List<PlanProvisioningRequest> provisioningRequests = new ArrayList<>();
  private volatile Function<PlanProvisioningRequest, ProvisioningPlan> planProvisioning =
      r -> new ProvisioningPlan(List.of(), List.of());
  private volatile Function<PlanReplacementRequest, ReplacementPlan> planReplacement =
      r -> new ReplacementPlan(Fixtures.claim(r.replacementName(), "default"), 3, "like " + r.nodeName());
  private volatile Function<PlanDisruptionRequest, DisruptionPlan> planDisruption = r -> DisruptionPlan.empty(0);
  private volatile Function<PlanDisruptionRequest, RolloutBatch> planRollout = r -> new RolloutBatch(List.of(), 0, List.of());
  private volatile FakeRolloutActivities rollout;
  private volatile Function<RecheckDisruptionRequest, CandidateDecision> recheckDisruption =
      r -> new CandidateDecision(r.nodeClaim(), null, null, true, r.reason() + ": still stands");

  public FakePlanningActivities(CallJournal journal) {
    this.journal = journal;
  }

  public FakePlanningActivities onPlanProvisioning(Function<PlanProvisioningRequest, ProvisioningPlan> behaviour) {
    this.planProvisioning = behaviour;
    return this;
  }

  /** The current planReplacement behaviour, to wrap. */
  public Function<PlanReplacementRequest, ReplacementPlan> planReplacementBehaviour() {
    return planReplacement;
  }

  public FakePlanningActivities onPlanReplacement(Function<PlanReplacementRequest, ReplacementPlan> behaviour) {
    this.planReplacement = behaviour;
    return this;
  }

  public FakePlanningActivities onPlanDisruption(Function<PlanDisruptionRequest, DisruptionPlan> behaviour) {
    this.planDisruption = behaviour;
    return this;
  }

  public FakePlanningActivities onPlanRollout(Function<PlanDisruptionRequest, RolloutBatch> behaviour) {
    this.planRollout = behaviour;
    return this;
  }

  /**
   * A rollback's batch, as a fake rollout planner answers a scope with {@code onlyClaims}: up to {@code max} of the
   * claims not in {@code rolledBack} yet (which it adds them to), and how many were left before it.
   */
  public static RolloutBatch rollbackBatch(RolloutScope scope, Set<String> rolledBack) {
    List<String> left = scope.onlyClaims().stream().filter(c -> !rolledBack.contains(c)).toList();
    List<String> take = left.subList(0, Math.min(scope.max(), left.size()));
    rolledBack.addAll(take);
    return new RolloutBatch(take.stream().map(c -> Fixtures.command(c, "replace", null)).toList(), left.size(), List.of());
  }

  public FakePlanningActivities onRecheckDisruption(Function<RecheckDisruptionRequest, CandidateDecision> behaviour) {
    this.recheckDisruption = behaviour;
    return this;
  }

  public synchronized List<PlanProvisioningRequest> provisioningRequests() {
    return List.copyOf(provisioningRequests);
  }

  @Override
  public ProvisioningPlan planProvisioning(PlanProvisioningRequest request) {
    synchronized (this) {
      provisioningRequests.add(request);
    }
    journal.record("planProvisioning", request.batchId());
    return planProvisioning.apply(request);
  }

  @Override
  public ReplacementPlan planReplacement(PlanReplacementRequest request) {
    journal.record("planReplacement", request.nodeClaim());
    return planReplacement.apply(request);
  }

  @Override
  public DisruptionPlan planDisruption(PlanDisruptionRequest request) {
    journal.record("planDisruption", request.cluster());
    return planDisruption.apply(request);
  }

  /**
   * Where a plan in one step ({@link dev.farrier.model.RolloutScope#inOneStep}) asks for the freeze and
   * the workloads on the old nodes, as the worker's planning activity does: the rollout fake answers the freeze and
   * journals it as {@code frozen}.
   */
  public FakePlanningActivities askingRolloutsOf(FakeRolloutActivities rollout) {
    this.rollout = rollout;
    return this;
  }

  @Override
  public RolloutBatch planRollout(PlanDisruptionRequest request) {
    var scope = request.rollout();
    if (scope != null && scope.inOneStep()) {
      String freeze = rollout.frozen(scope.nodePools());
      if (freeze != null) {
        return RolloutBatch.frozenBy(freeze);
      }
    }
    journal.record("planRollout", scope == null ? null : scope.onlyClaims().isEmpty()
        ? "max=" + scope.max() : "rollback " + scope.onlyClaims());
    RolloutBatch batch = planRollout.apply(request);
    if (scope == null || !scope.inOneStep()) {
      return batch;
    }
    Map<String, List<WorkloadRef>> workloads = new HashMap<>();
    batch.commands().forEach(c -> workloads.put(c.nodeClaim(),
        c.nodeName() == null ? List.of() : FakeRolloutActivities.workloadsOf(List.of(c.nodeName()))));
    return batch.withWorkloads(workloads);
  }

  @Override
  public CandidateDecision recheckDisruption(RecheckDisruptionRequest request) {
    journal.record("recheckDisruption", request.nodeClaim() + " " + request.reason());
    return recheckDisruption.apply(request);
  }
}

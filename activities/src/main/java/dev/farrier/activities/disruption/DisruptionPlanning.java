package dev.farrier.activities.disruption;

import static dev.farrier.activities.disruption.NodeClaimViews.nodeName;

import dev.farrier.activities.cloud.Ownership;
import dev.farrier.activities.crd.NodePoolHash;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.DisruptionConditions;
import dev.farrier.planner.DisruptionPlanner;
import dev.farrier.planner.DisruptionSnapshot;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.workflows.activities.RecheckDisruptionRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code planDisruption} and {@code recheckDisruption}: the disruption planner's decisions from a snapshot of Farrier's
 * NodeClaims ({@link DisruptionSnapshots}); a round's writes are its {@link DisruptionRoundEffects}, applied after the
 * plan is made.
 */
public final class DisruptionPlanning {
  private static final Logger log = LoggerFactory.getLogger(DisruptionPlanning.class);

  private final NodeClaimStore claims;
  private final DisruptionSnapshots snapshots;
  private final DisruptionRoundEffects effects;
  private final DisruptionPlanner disruption = new DisruptionPlanner();

  public DisruptionPlanning(NodeClaimStore claims, DisruptionSnapshots snapshots, DisruptionRoundEffects effects) {
    this.claims = claims;
    this.snapshots = snapshots;
    this.effects = effects;
  }

  /**
   * Plans drift, expiry and deletion for the NodeClaims Farrier launched. Claims it did not launch (Karpenter's, or a
   * user's) are left alone with a decision that says so: Farrier never terminates their instances, so it must not
   * start draining them either. Then applies the round's {@link DisruptionRoundEffects}: the Drifted, Expired and
   * Consolidatable conditions of Farrier's claims that {@link DisruptionConditions} decides from the same snapshot go to
   * the {@link DisruptionConditionWriter}, which writes them on its own thread, after the plan is returned (idempotent:
   * merged by type toward that target, an unchanged status keeps its lastTransitionTime, nothing sent when already so);
   * a failed write is logged, never fails the plan. With node repair on ({@link PlanDisruptionRequest#nodeRepair()}), a
   * NodePool whose unhealthy share holds its repairs gets a Warning Event, at most once per
   * {@link RepairBlockedEvents#WINDOW}. A preview plans the same and writes, records and counts nothing.
   */
  public DisruptionPlan plan(PlanDisruptionRequest request) {
    var all = claims.listNodeClaims();
    var claims = all.stream().filter(Ownership::launchedByFarrier).toList();
    var snapshot = snapshots.of(all, claims, request.frozen(), request.nodeRepair());
    var round = disruption.round(snapshot.snapshot());
    var plan = round.plan();
    boolean preview = request.purpose() == PlanDisruptionRequest.Purpose.PREVIEW;
    if (!preview) {
      effects.apply(claims, snapshot.snapshot(), plan, round.moves());
    }
    // The planner knows no NodePool it was not given: say why its claims are left alone.
    List<CandidateDecision> decisions = new ArrayList<>(plan.decisions().stream()
        .map(d -> !d.disrupt() && snapshot.unplannable().contains(d.nodePool()) ? new CandidateDecision(d.nodeClaim(), d.nodeName(), d.nodePool(), false,
            "nodepool " + d.nodePool() + " cannot be planned (see its ValidationSucceeded condition): left alone") : d)
        .toList());
    all.stream().filter(c -> !Ownership.launchedByFarrier(c)).forEach(c -> decisions.add(new CandidateDecision(c.getMetadata().getName(),
        nodeName(c), c.getMetadata().getLabels() == null ? null : c.getMetadata().getLabels().get(WellKnown.NODEPOOL_LABEL), false,
        "not launched by Farrier (no " + WellKnown.NODEPOOL_HASH_VERSION_ANNOTATION + "=" + NodePoolHash.VERSION + "): left alone")));
    if (!plan.commands().isEmpty()) {
      log.info("disruption planned commands={} candidates={}", plan.commands().size(), decisions.size());
    }
    var result = plan.withDecisions(decisions, 0);
    return request.purpose() == PlanDisruptionRequest.Purpose.ROUND ? result.commandsOnly()
        : preview ? result.atMost(DisruptionPlan.MAX_DECISIONS) : result;
  }

  /**
   * Whether the replacement's consolidation still holds: the same reason and, for a multi-node replace, the same group,
   * planned again from a fresh snapshot focused on its claims. Writes nothing.
   */
  public CandidateDecision recheck(RecheckDisruptionRequest request) {
    var all = claims.listNodeClaims();
    var claims = all.stream().filter(Ownership::launchedByFarrier).toList();
    var found = snapshots.of(all, claims, Map.of(), false, request.nodeClaim()).snapshot();
    var own = found.nodeClaims().stream().filter(c -> c.name().equals(request.nodeClaim())).findFirst().orElse(null);
    if (own == null) {
      return new CandidateDecision(request.nodeClaim(), null, null, false, "nodeclaim " + request.nodeClaim() + " is gone");
    }
    // Its replacement is the caller: before its first step it must not hold the claim back from its own plan.
    var snapshot = own.disruptedTaint() ? found : new DisruptionSnapshot(found.nowMillis(), found.nodePools(),
        found.nodeClaims().stream().map(c -> c == own ? c.withoutOwnReplacement() : c).toList(), found.resolvedImages(), found.frozen(),
        found.consolidation());
    Set<String> focus = new HashSet<>(request.consolidatedWith());
    focus.add(request.nodeClaim());
    var plan = disruption.recheck(snapshot, focus);
    String changed = DisruptionPlanner.noLongerStands(plan, request.nodeClaim(), request.reason(), request.method(),
        request.consolidatedWith());
    boolean still = changed == null;
    var decision = plan.decisions().stream().filter(d -> d.nodeClaim().equals(request.nodeClaim())).findFirst()
        .orElse(new CandidateDecision(own.name(), own.nodeName(), own.nodePool(), false, "not planned"));
    String why = still ? decision.reason() : changed + ": " + decision.reason();
    log.info("disruption rechecked nodeclaim={} reason={} still={} decision=\"{}\"", request.nodeClaim(), request.reason(), still, why);
    return new CandidateDecision(decision.nodeClaim(), decision.nodeName(), decision.nodePool(), still, why);
  }
}

package dev.farrier.activities.disruption;

import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.kube.EventSink;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.activities.metrics.ConsolidationMetrics;
import dev.farrier.activities.metrics.DisruptionMetrics;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.ClaimConditions;
import dev.farrier.planner.ConsolidationMove;
import dev.farrier.planner.DisruptionConditions;
import dev.farrier.planner.DisruptionSnapshot;
import dev.farrier.planner.Repair;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a disruption round does once its plan is made, apart from deciding: marks the groups of multi-node
 * consolidations, hands the Drifted, Expired and Consolidatable conditions to the {@link DisruptionConditionWriter},
 * records the RepairBlocked, DisruptionBlocked and NodePoolNodeLimitReached Events, and counts the decisions and eligible nodes
 * ({@link DisruptionMetrics}) and the consolidation moves weighed ({@link ConsolidationMetrics}). Each is written toward a target or deduplicated, and a failed write is logged, never fails
 * the plan: a retried round is safe.
 */
public final class DisruptionRoundEffects {
  private static final Logger log = LoggerFactory.getLogger(DisruptionRoundEffects.class);

  private final NodeClaimStore claims;
  private final DisruptionConditionWriter conditions;
  private final RepairBlockedEvents repairBlocked;
  private final DisruptionBlockedEvents disruptionBlocked;
  private final StaticLimitEvents staticLimit;
  private final DisruptionMetrics metrics;
  private final ConsolidationMetrics consolidation;

  public DisruptionRoundEffects(NodeClaimStore claims, EventSink events, MeterRegistry meters, Clock clock) {
    this.claims = claims;
    this.conditions = new DisruptionConditionWriter(claims, clock);
    this.repairBlocked = new RepairBlockedEvents(events, clock);
    this.disruptionBlocked = new DisruptionBlockedEvents(events, clock);
    this.staticLimit = new StaticLimitEvents(events, clock);
    this.metrics = new DisruptionMetrics(meters);
    this.consolidation = new ConsolidationMetrics(meters);
  }

  /**
   * The effects of a round that planned {@code plan} from {@code snapshot} of Farrier's {@code claims}, weighing the
   * consolidation {@code moves}.
   */
  void apply(List<NodeClaim> claims, DisruptionSnapshot snapshot, DisruptionPlan plan, List<ConsolidationMove> moves) {
    markGroups(plan.commands());
    var targets = DisruptionConditions.of(snapshot);
    conditions.submit(claims, targets);
    repairBlocked.record(Repair.of(snapshot).blocked());
    disruptionBlocked.record(plan.decisions());
    staticLimit.record(plan.staticHeld());
    metrics.decided(plan.commands());
    metrics.eligible(eligible(snapshot, targets));
    consolidation.weighed(moves);
  }

  /** Counts the commands of a rollout's batch as decisions. */
  public void decided(List<DisruptionCommand> commands) {
    metrics.decided(commands);
  }

  /** Waits until the conditions of every round so far are written (for tests: they are written after the round). */
  public void awaitConditionWrites() throws Exception {
    conditions.awaitWrites(Duration.ofMinutes(1));
  }

  /**
   * Marks the other claims of each multi-node consolidation with the claim replaced for them
   * ({@link WellKnown#CONSOLIDATED_WITH_ANNOTATION}), so the next rounds leave them to it. A failed write is logged: the
   * next round may then choose them again, and the replacement's recheck sees its group changed.
   */
  private void markGroups(List<DisruptionCommand> commands) {
    for (DisruptionCommand c : commands) {
      for (String other : c.consolidatedWith()) {
        try {
          claims.patchNodeClaimMetadata(other, Map.of(), Map.of(WellKnown.CONSOLIDATED_WITH_ANNOTATION, c.nodeClaim()));
        } catch (RuntimeException e) {
          log.warn("multi-node consolidation not marked nodeclaim={} with={}: {}", other, c.nodeClaim(), e.toString());
        }
      }
    }
  }

  /**
   * The voluntary candidates by reason, whatever budgets and do-not-disrupt then allow: claims the conditions mark
   * drifted, and those EC2 recommends rebalancing (their NodePool opted in).
   */
  private static Map<String, Integer> eligible(DisruptionSnapshot snapshot, List<ClaimConditions> conditions) {
    int drifted = (int) conditions.stream()
        .filter(c -> c.set().stream().anyMatch(t -> ClaimConditions.DRIFTED.equals(t.type()))).count();
    int rebalance = (int) snapshot.nodeClaims().stream().filter(c -> c.rebalanceRecommended() && !c.deleting()).count();
    return Map.of("drifted", drifted, "rebalance", rebalance);
  }
}

package dev.farrier.planner;

import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.RolloutBatch;
import dev.farrier.model.RolloutScope;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntUnaryOperator;

/**
 * A rollout's batches played forward on one snapshot, for its preview: the rollout's own planner
 * ({@link DisruptionPlanner#planRollout}) is asked for the canary, then for each next batch, as the rollout asks it, the
 * nodes of the batches before counted as replaced. So the preview's order, batch sizes, budgets and do-not-disrupt holds
 * are the rollout's, not a second copy of them.
 *
 * <p>A replaced node stays in the snapshot as the node of its NodePool it is replaced by (out of the scope, so never
 * planned again, and counted for the budgets' percentages as its replacement would be). A running rollout's replacements
 * in flight count as being replaced for the first batch only; after it they have left the snapshot, as they will have
 * left the fleet.
 */
public final class RolloutSimulation {
  private RolloutSimulation() {}

  /**
   * The batches in order and the nodes no batch takes.
   *
   * @param batches the canary first (unless it was done), then the batches
   * @param held    every node the planner keeps waiting once no batch takes more, with why
   * @param total   the nodes to replace as the rollout counts them at its canary (in flight and held included)
   */
  public record Result(List<List<DisruptionCommand>> batches, List<CandidateDecision> held, int total) {}

  /**
   * @param snapshot   the cluster as the rollout would plan on it: its NodePools owned by {@code workflowId}, their class
   *                   resolving to the target images
   * @param inFlight   a running rollout's replacements in flight (empty before it starts)
   * @param canaryDone a running rollout past its canary: every batch is {@code batchOf(total)}
   * @param canary     the canary's size
   * @param total      a running rollout's count of nodes to replace; 0 to take the planner's count at the first batch
   * @param batchOf    the nodes of one batch after the canary, of the total ({@code --batch-size})
   */
  public static Result simulate(DisruptionSnapshot snapshot, String workflowId, List<String> nodePools, List<String> inFlight,
      boolean canaryDone, int canary, int total, IntUnaryOperator batchOf) {
    DisruptionPlanner planner = new DisruptionPlanner();
    Set<String> pools = Set.copyOf(nodePools);
    List<String> inScope = snapshot.nodeClaims().stream().filter(c -> pools.contains(c.nodePool())).map(NodeClaimView::name).toList();
    Set<String> replaced = new HashSet<>();
    List<List<DisruptionCommand>> batches = new ArrayList<>();
    List<CandidateDecision> held = List.of();
    boolean first = true;
    while (true) {
      List<String> left = inScope.stream().filter(c -> !replaced.contains(c)).toList();
      if (left.isEmpty()) {
        held = List.of();
        break;
      }
      int max = first && !canaryDone ? canary : batchOf.applyAsInt(Math.max(total, 1));
      RolloutBatch batch = planner.planRollout(snapshot, new RolloutScope(workflowId, nodePools, max, left,
          first ? inFlight : List.of()), true);
      if (first && total == 0) {
        total = batch.remaining();
      }
      held = batch.held();
      if (batch.commands().isEmpty()) {
        break;
      }
      batches.add(batch.commands());
      batch.commands().forEach(c -> replaced.add(c.nodeClaim()));
      if (first && !inFlight.isEmpty()) {
        Set<String> gone = Set.copyOf(inFlight);
        replaced.addAll(gone);
        snapshot = new DisruptionSnapshot(snapshot.nowMillis(), snapshot.nodePools(),
            snapshot.nodeClaims().stream().filter(c -> !gone.contains(c.name())).toList(), snapshot.resolvedImages(),
            snapshot.frozen(), snapshot.consolidation(), snapshot.nodeRepair());
      }
      first = false;
    }
    return new Result(batches, held, total);
  }
}

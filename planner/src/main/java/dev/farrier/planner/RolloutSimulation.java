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
 * planned again, and counted for the budgets' percentages as its replacement would be). A running rollout's
 * replacements in flight are waited for as the rollout waits for them: in batch mode (and for the canary) the next
 * batch is planned once the batch in flight has closed, so they have left the snapshot before the first plan; a rolling
 * rollout past its canary refills its free slots at once ({@code max} minus the slots in flight, the in-flight ones
 * counted against the budgets), and when no slot is free or the budgets are taken it waits for them to close and plans
 * again.
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
   * @param rolling    {@code --rolling}: past the canary, the first plan refills the slots the replacements in flight
   *                   leave free
   * @param canary     the canary's size
   * @param total      a running rollout's count of nodes to replace; 0 to take the planner's count at the first batch
   * @param batchOf    the nodes of one batch after the canary, of the total ({@code --batch-size})
   */
  public static Result simulate(DisruptionSnapshot snapshot, String workflowId, List<String> nodePools, List<String> inFlight,
      boolean canaryDone, boolean rolling, int canary, int total, IntUnaryOperator batchOf) {
    DisruptionPlanner planner = new DisruptionPlanner();
    Set<String> pools = Set.copyOf(nodePools);
    List<String> inScope = snapshot.nodeClaims().stream().filter(c -> pools.contains(c.nodePool())).map(NodeClaimView::name).toList();
    Set<String> replaced = new HashSet<>();
    boolean refill = rolling && canaryDone && !inFlight.isEmpty();
    if (!refill && !inFlight.isEmpty()) {
      snapshot = closed(snapshot, inFlight, replaced);
    }
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
      boolean refilling = first && refill;
      if (refilling) {
        max -= inFlight.size();
      }
      RolloutBatch batch = max <= 0 ? null : planner.planRollout(snapshot, new RolloutScope(workflowId, nodePools, max, left,
          refilling ? inFlight : List.of()), true);
      if (first && total == 0 && batch != null) {
        total = batch.remaining();
      }
      first = false;
      if (refilling) {
        // The slots in flight close before the rollout plans past this wave.
        snapshot = closed(snapshot, inFlight, replaced);
      }
      if (batch == null || batch.commands().isEmpty()) {
        if (refilling) {
          continue; // no free slot or no budget beside the slots in flight: the rollout waits for them, then plans
        }
        held = batch == null ? List.of() : batch.held();
        break;
      }
      held = batch.held();
      batches.add(batch.commands());
      batch.commands().forEach(c -> replaced.add(c.nodeClaim()));
    }
    return new Result(batches, held, total);
  }

  /** The snapshot once the replacements {@code inFlight} have closed: their old nodes gone from the fleet. */
  private static DisruptionSnapshot closed(DisruptionSnapshot snapshot, List<String> inFlight, Set<String> replaced) {
    Set<String> gone = Set.copyOf(inFlight);
    replaced.addAll(gone);
    return new DisruptionSnapshot(snapshot.nowMillis(), snapshot.nodePools(),
        snapshot.nodeClaims().stream().filter(c -> !gone.contains(c.name())).toList(), snapshot.resolvedImages(),
        snapshot.frozen(), snapshot.consolidation(), snapshot.nodeRepair());
  }
}

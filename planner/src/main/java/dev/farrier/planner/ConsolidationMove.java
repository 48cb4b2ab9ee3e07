package dev.farrier.planner;

/**
 * A consolidation move the planner weighed in one NodePool, as Karpenter counts it in
 * {@code karpenter_consolidation_moves_total} and {@code karpenter_consolidation_score}: every single-node move it found
 * (delete or replace), and the multi-node move it chose (or the last one it turned down when it chose none), per NodePool
 * of the move.
 *
 * @param nodePool the NodePool
 * @param policy   its {@code consolidationPolicy}
 * @param approved the move goes ahead as far as the score goes (always, outside {@code Balanced})
 * @param score    the NodePool's {@link BalancedScore}, null outside {@code Balanced}
 */
public record ConsolidationMove(String nodePool, String policy, boolean approved, BalancedScore score) {}

package dev.farrier.planner;

import dev.farrier.model.RolloutPreview.PreviewEstimate;
import java.util.List;

/**
 * How long a rollout would take at the fleet's own pace: from the durations of its NodePools' closed replacements
 * (start to close of each {@code disrupt/<nodeclaim>} that replaced its node), the median for a batch of one node or a
 * rolling slot, the 90th percentile for a batch of several (it waits for its slowest), plus the soak after each batch
 * (each slot, rolling). An approval after the canary and nodes held by do-not-disrupt are not counted: they wait for a
 * person or a workload, and the basis says so.
 */
public final class RolloutEstimate {
  private RolloutEstimate() {}

  /**
   * @param durationsSeconds the closed replacements' durations; empty: no history, no estimate
   * @param batchSizes       the nodes of each batch in order, the canary first (rolling: the waves of slots)
   * @param rolling          after the canary, slots refilled one by one instead of whole batches
   * @param canaryPending    the first of {@code batchSizes} is the canary (false for a running rollout past it: every
   *                         batch is then a wave of slots, rolling)
   * @param slots            rolling: the replacements in flight at once
   * @param inFlight         a running rollout's replacements in flight, not counted (they are under way)
   */
  public static PreviewEstimate of(List<Long> durationsSeconds, List<Integer> batchSizes, boolean rolling,
      boolean canaryPending, int slots, long soakSeconds, boolean approval, int held, int inFlight) {
    if (durationsSeconds.isEmpty()) {
      return new PreviewEstimate(0, null, null, null, "no history: no replacement of these NodePools has closed yet");
    }
    List<Long> sorted = durationsSeconds.stream().sorted().toList();
    long p50 = percentile(sorted, 50);
    long p90 = percentile(sorted, 90);
    long total = 0;
    for (int i = 0; i < batchSizes.size(); i++) {
      int size = batchSizes.get(i);
      if (rolling && (i > 0 || !canaryPending)) {
        // Each slot starts its next replacement as its own one passes its gate: its nodes go through one after another.
        long perSlot = (size + Math.max(slots, 1) - 1) / Math.max(slots, 1);
        total += perSlot * (p50 + soakSeconds);
      } else {
        total += (size > 1 ? p90 : p50) + soakSeconds;
      }
    }
    String basis = sorted.size() + " closed replacement(s) of these NodePools: p50 " + p50 + "s, p90 " + p90 + "s per node; "
        + (rolling ? (canaryPending ? "the canary, then " : "") + slots + " rolling slot(s) at p50 each" : "p50 for a batch of one node, p90 for a larger one")
        + ", plus the soak of " + soakSeconds + "s after each" + (approval ? "; not counting the wait for the approval after the canary" : "")
        + (held > 0 ? "; not counting " + held + " held node(s), which wait for what holds them" : "")
        + (inFlight > 0 ? "; not counting the " + inFlight + " replacement(s) in flight" : "");
    return new PreviewEstimate(sorted.size(), p50, p90, total, basis);
  }

  /** The nearest-rank percentile of sorted values. */
  static long percentile(List<Long> sorted, int p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size(), rank) - 1));
  }
}

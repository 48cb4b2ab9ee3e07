package dev.farrier.workflows.replacement;

import java.util.List;

/**
 * What holds a replacement up now, as the {@code progress} query, the {@code FarrierBlocker} search attribute, the
 * CLI and the {@code DrainBlocked} Events name it.
 *
 * @param kind         the kind of hold
 * @param summary      one line naming it, e.g. "PodDisruptionBudget default/inflate-pdb" (the search attribute's value)
 * @param budgets      the PodDisruptionBudgets (namespace/name) that refused evictions, if any
 * @param pods         the pods held (namespace/name), if any
 * @param sinceMillis  when this blocker was first seen (workflow time); unchanged while the same blocker holds
 */
public record Blocker(Kind kind, String summary, List<String> budgets, List<String> pods, long sinceMillis) {
  public Blocker {
    budgets = budgets == null ? List.of() : List.copyOf(budgets);
    pods = pods == null ? List.of() : List.copyOf(pods);
  }

  public enum Kind {
    /** A PodDisruptionBudget refuses evictions (HTTP 429). */
    PDB,
    /** Pods annotated {@code karpenter.sh/do-not-disrupt: "true"}. */
    DO_NOT_DISRUPT,
    /** Pods no controller would recreate: evicting them would lose them for good. */
    NO_CONTROLLER,
    /** The eviction call itself fails (e.g. a pod covered by two PDBs, an API error). */
    EVICTION_FAILED,
    /**
     * A PodDisruptionBudget refuses evictions of a pod opted in to surges ({@code farrier.dev/surge}): its Deployment
     * is surging (waiting for its new pod to be Ready), or the surge was refused or stalled, with the reason.
     */
    SURGE,
    /** A step failed; waiting for an operator's {@code Retry} (or {@code Abort}). */
    STEP_FAILED,
    /** Waiting for an operator's {@code Approve}. */
    APPROVAL
  }

  /** Same hold as {@code other} (kind and summary), so its {@link #sinceMillis} carries over. */
  public boolean sameAs(Blocker other) {
    return other != null && kind == other.kind && summary.equals(other.summary);
  }

  /** This blocker, first seen at {@code millis}. */
  public Blocker since(long millis) {
    return new Blocker(kind, summary, budgets, pods, millis);
  }
}

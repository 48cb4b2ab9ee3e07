package dev.farrier.activities.disruption;

import java.util.Set;

/**
 * Which NodeClaims a replacement workflow ({@code disrupt/<nodeclaim>}) holds: one that runs, or one that completed
 * moments ago having replaced its node (its Node and NodeClaim may still be in a planning round's snapshot; planning it
 * again would start a second replacement of a node that is already gone). One that completed without replacing (an
 * abort, an invalidated consolidation) holds nothing: its node is back in service. The disrupted taint alone is not
 * proof either way: a replacement runs a moment before its taint lands (or while the taint write is retried), and a
 * taint outlives a replacement that was terminated, reset or failed past its point of no return; a taint nobody owns
 * would hold the node (and a unit of its NodePool's budget) forever.
 */
public interface ReplacementTracker {
  /** Without a way to ask: only a taint shows a replacement, and every taint counts as one (nothing is started twice). */
  ReplacementTracker TAINT_MEANS_RUNNING = new ReplacementTracker() {
    @Override
    public Set<String> active() {
      return Set.of();
    }

    @Override
    public boolean active(String nodeClaim) {
      return true;
    }
  };

  /**
   * The claims whose replacement runs or just completed, read once for a planning round (a list, so it may lag a
   * replacement started a moment ago; {@link #active(String)} is the consistent answer for one claim). Empty when it
   * cannot be read.
   */
  Set<String> active();

  /** Whether the claim's replacement runs or just completed; when it cannot tell, true (the safe side). */
  boolean active(String nodeClaim);
}

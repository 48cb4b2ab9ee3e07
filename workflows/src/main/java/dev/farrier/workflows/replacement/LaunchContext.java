package dev.farrier.workflows.replacement;

import dev.farrier.model.ReplacementPlan;
import dev.farrier.workflows.provisioning.LaunchedNode;

/** What {@link ReplacementLaunch} needs from the replacement that runs it, and nothing more. */
interface LaunchContext {
  /** The replacement NodeClaim, once planned; null before. */
  String replacementName();

  /** Records the replacement: its name once planned, the node once initialized (null: not yet, or rolled back). */
  void replacement(String name, LaunchedNode launched);

  /** A forceful expiry (or repair): its launch, once started, stays the replacement across a retry. */
  boolean forceful();

  /** The node goes whatever happens to its replacement: the launch is not waited for, and its failure stops nothing. */
  boolean drainsNow();

  /** How a node that drains now is named in logs and Events ("interrupted", or the disruption's reason). */
  String goingAway();

  boolean abortRequested();

  /** The accepted abort's reason, null when none was accepted. */
  String abortDescription();

  /** Holds while paused; throws {@link AbortRequested} once an abort is accepted. */
  void checkpoint();

  /** Tells, once per run, that the node is interrupted (lifts a pause, says so on the node). */
  void noticeInterruption();

  /** Logs the disruption decision, with the replacement planned (null: none). */
  void logDecision(ReplacementPlan plan);

  /** A Warning Event on the node (on its NodeClaim when there is no node). */
  void warnOnNode(String reason, String message);
}

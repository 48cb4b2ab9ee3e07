package dev.farrier.workflows.interruption;

/**
 * What the interruption workflow saw, over its whole life.
 *
 * @param notices            messages naming instances, handled or not yet
 * @param malformed          messages that were not an event Farrier understands: logged, deleted, never retried
 * @param ignored            well-formed events needing nothing (e.g. an instance state change to running): deleted
 * @param notFarriers        instances named by a notice that no Farrier NodeClaim has: logged, deleted
 * @param replacementsStarted replacements this workflow started
 * @param escalated          replacements already running that were told to drain now
 * @param rebalanceEvents    rebalance recommendations recorded: an Event, and for an opted-in NodePool the node marked
 *                           for the disruption planner
 * @param deleteFailures     messages the queue refused to delete (they come back and are handled again)
 */
public record InterruptionCounts(long notices, long malformed, long ignored, long notFarriers, long replacementsStarted,
    long escalated, long rebalanceEvents, long deleteFailures) {
  public static final InterruptionCounts ZERO = new InterruptionCounts(0, 0, 0, 0, 0, 0, 0, 0);

  InterruptionCounts plus(InterruptionCounts o) {
    return new InterruptionCounts(notices + o.notices, malformed + o.malformed, ignored + o.ignored,
        notFarriers + o.notFarriers, replacementsStarted + o.replacementsStarted, escalated + o.escalated,
        rebalanceEvents + o.rebalanceEvents, deleteFailures + o.deleteFailures);
  }
}

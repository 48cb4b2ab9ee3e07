package dev.farrier.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** The interruption queue (SQS) and what the interruption workflow needs to know about the instances it names. */
@ActivityInterface
public interface InterruptionActivities {
  /**
   * Long-polls the queue once (up to 20 s, up to 10 messages) and parses each message. Malformed and ignorable
   * messages are deleted here and counted, so a message nobody can handle never comes back. Safe to retry: a
   * message received by a lost attempt becomes visible again after the queue's visibility timeout.
   */
  @ActivityMethod
  ReceivedInterruptions receive(ReceiveInterruptionsRequest request);

  /** Reads NodeClaims, Nodes and NodePools; mutates nothing. */
  @ActivityMethod
  ResolvedInterruption resolve(ResolveInterruptionRequest request);

  /** Marks an offering unavailable in the cloud provider's cache. Idempotent: marking twice extends the same mark. */
  @ActivityMethod
  void markUnavailable(MarkUnavailableRequest request);

  /**
   * Deletes messages by receipt handle. Idempotent: SQS accepts deleting a message that is already gone with the same
   * handle; entries the queue refuses are reported, not thrown, since the message then simply comes back.
   */
  @ActivityMethod
  DeletedMessages deleteMessages(DeleteMessagesRequest request);

  /**
   * Marks the node {@code farrier.dev/rebalance-recommended} (an opted-in NodePool's node EC2 recommends rebalancing
   * away), so the disruption planner replaces it as a voluntary disruption, within budgets and do-not-disrupt.
   * Idempotent (a merge patch); a node already gone is done.
   */
  void markRebalanceRecommended(NodeRef request);
}

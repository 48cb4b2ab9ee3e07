package dev.farrier.workflows.testing;

import dev.farrier.workflows.activities.DeleteMessagesRequest;
import dev.farrier.workflows.activities.DeletedMessages;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.workflows.activities.InterruptionActivities;
import dev.farrier.workflows.activities.InterruptionKind;
import dev.farrier.workflows.activities.InterruptionNotice;
import dev.farrier.workflows.activities.InterruptionTarget;
import dev.farrier.workflows.activities.MarkUnavailableRequest;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.activities.ReceiveInterruptionsRequest;
import dev.farrier.workflows.activities.ReceivedInterruptions;
import dev.farrier.workflows.activities.ResolveInterruptionRequest;
import dev.farrier.workflows.activities.ResolvedInterruption;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hand-written InterruptionActivities: a queue of batches ({@link #deliver}); an empty poll returns after a few
 * milliseconds, as a long poll with nothing to say. Instances {@code i-<claim>} resolve to claim {@code <claim>} of
 * NodePool {@code default} unless listed in {@link #notFarriers}; NodePools in {@link #rebalanceOptIn} opt in.
 */
public class FakeInterruptionActivities implements InterruptionActivities {
  private final CallJournal journal;
  private final LinkedBlockingQueue<ReceivedInterruptions> batches = new LinkedBlockingQueue<>();
  public final Set<String> notFarriers = ConcurrentHashMap.newKeySet();
  public final Set<String> rebalanceOptIn = ConcurrentHashMap.newKeySet();
  public final AtomicInteger polls = new AtomicInteger();

  public FakeInterruptionActivities(CallJournal journal) {
    this.journal = journal;
  }

  public void deliver(ReceivedInterruptions batch) {
    batches.add(batch);
  }

  public static InterruptionNotice notice(InterruptionKind kind, String nodeClaim) {
    return new InterruptionNotice(kind, List.of(FakeNodeClaimActivities.instanceIdOf(nodeClaim)), 0, "test " + kind,
        "msg-" + nodeClaim + "-" + kind, "rh-" + nodeClaim + "-" + kind);
  }

  @Override
  public ReceivedInterruptions receive(ReceiveInterruptionsRequest request) {
    polls.incrementAndGet();
    try {
      ReceivedInterruptions batch = batches.poll(5, TimeUnit.MILLISECONDS);
      return batch != null ? batch : new ReceivedInterruptions(List.of(), 0, 0);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new ReceivedInterruptions(List.of(), 0, 0);
    }
  }

  @Override
  public ResolvedInterruption resolve(ResolveInterruptionRequest request) {
    journal.record("resolve", request.kind(), String.join(",", request.instanceIds()));
    return new ResolvedInterruption(request.instanceIds().stream().map(id -> {
      if (notFarriers.contains(id)) {
        return new InterruptionTarget(id, null, false, null);
      }
      String claim = id.substring(2);
      var command = new DisruptionCommand(claim, FakeNodeClaimActivities.nodeNameOf(claim), "default", id, DisruptionMethod.REPLACE,
          request.kind().name(), request.detail(), 3, null, "m5.large", "spot");
      return new InterruptionTarget(id, command, rebalanceOptIn.contains("default"), "us-west-2a");
    }).toList());
  }

  @Override
  public void markUnavailable(MarkUnavailableRequest request) {
    journal.record("markUnavailable", request.instanceType(), request.zone(), request.capacityType());
  }

  @Override
  public void markRebalanceRecommended(NodeRef request) {
    journal.record("markRebalanceRecommended", request.nodeName());
  }

  @Override
  public DeletedMessages deleteMessages(DeleteMessagesRequest request) {
    journal.record("deleteMessages", String.join(",", request.receiptHandles()));
    return new DeletedMessages(request.receiptHandles().size(), List.of());
  }
}

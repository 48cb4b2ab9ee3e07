package dev.farrier.workflows.reconciler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.PodRef;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodBatcherTest {
  private static final long IDLE = 1_000;
  private static final long MAX = 10_000;
  private final PodBatcher batcher = new PodBatcher();

  private static PodRef pod(String name) {
    return new PodRef("default", name, "uid-" + name);
  }

  @Test
  void aBatchIsDueAfterTheIdleWindowWithoutNewPods() {
    batcher.offer(List.of(pod("a")), 0);
    batcher.offer(List.of(pod("b")), 800);

    assertFalse(batcher.isDue(1_700, IDLE, MAX));
    assertTrue(batcher.isDue(1_800, IDLE, MAX));
  }

  @Test
  void aBatchIsDueAtTheMaxWindowEvenWhilePodsKeepComing() {
    for (long t = 0; t <= 9_900; t += 900) {
      batcher.offer(List.of(pod("p" + t)), t);
    }
    assertEquals(10_000, batcher.dueAt(IDLE, MAX));
  }

  @Test
  void podsAreDeduplicatedByUidAgainstTheQueueAndBatchesInFlight() {
    assertEquals(2, batcher.offer(List.of(pod("a"), pod("b"), pod("a")), 0));
    List<PodRef> dispatched = batcher.dispatch("provision/c/1", 100);
    assertEquals(List.of(pod("a"), pod("b")), dispatched);

    assertEquals(1, batcher.offer(List.of(pod("a"), pod("c")), 100), "a is in flight");
    assertEquals(List.of(pod("c")), batcher.queued());

    batcher.completed("provision/c/1", 150);
    assertEquals(List.of(pod("c"), pod("a")), batcher.queued(), "a comes back once its batch is done");
    assertEquals(0, batcher.offer(List.of(pod("a")), 200), "and is queued once");
  }

  @Test
  void aPodOfferedAgainWhileItsBatchRunsIsQueuedWhenTheBatchEndsNotAtTheNextResync() {
    batcher.offer(List.of(pod("a"), pod("b")), 0);
    batcher.dispatch("provision/c/1", 100);
    // The scheduler left a unbound after the batch planned it (its node filled with other pods): signalled again.
    assertEquals(0, batcher.offer(List.of(pod("a")), 500));
    assertFalse(batcher.isOpen());

    batcher.completed("provision/c/1", 900);

    assertEquals(List.of(pod("a")), batcher.queued(), "b was not offered again: bound, or not pending any more");
    assertEquals(900 + IDLE, batcher.dueAt(IDLE, MAX));
    batcher.dispatch("provision/c/2", 100);
    batcher.completed("provision/c/2", 1_000);
    assertFalse(batcher.isOpen(), "an offer is requeued once, for the batch it was made during");
  }

  @Test
  void podsReleasedFromABatchStillInFlightLeaveItAndThoseOfferedWhileItRanAreQueuedAtOnce() {
    batcher.offer(List.of(pod("a"), pod("b"), pod("c")), 0);
    batcher.dispatch("provision/c/1", 100);
    batcher.offer(List.of(pod("a"), pod("b")), 500);

    batcher.released("provision/c/1", List.of(pod("a"), pod("c")), 900);

    assertEquals(List.of(pod("a")), batcher.queued(), "a was offered again; c was not (bound, or not pending any more)");
    assertEquals(900 + IDLE, batcher.dueAt(IDLE, MAX));
    assertEquals(1, batcher.offer(List.of(pod("c")), 950), "c left the batch: a later offer queues it");
    assertEquals(0, batcher.offer(List.of(pod("b")), 950), "b is still the batch's");
    assertEquals(List.of(new CarriedBatch("provision/c/1", List.of("uid-b"), 5_000)), batcher.carry(5_000));

    batcher.released("provision/c/9", List.of(pod("b")), 990);
    assertEquals(List.of(pod("a"), pod("c")), batcher.queued(), "a batch not in flight releases nothing");
    batcher.completed("provision/c/1", 1_000);
    assertEquals(List.of(pod("a"), pod("c"), pod("b")), batcher.queued(), "b, offered while the batch ran, once it closed");
  }

  @Test
  void aCarriedBatchReleasedAtItsTimeQueuesThePodsOfferedWhileItRan() {
    batcher.adopt(new CarriedBatch("provision/c/7", List.of("uid-a", "uid-b"), 1_000));
    batcher.offer(List.of(pod("a")), 500);
    assertFalse(batcher.isOpen());

    batcher.offer(List.of(), 1_000);

    assertEquals(List.of(pod("a")), batcher.queued());
  }

  @Test
  void aBatchTakesAtMostItsCapOldestFirstAndTheRestStayDue() {
    batcher.offer(List.of(pod("a"), pod("b"), pod("c")), 0);

    assertEquals(List.of(pod("a"), pod("b")), batcher.dispatch("provision/c/1", 2));

    assertEquals(List.of(pod("c")), batcher.queued());
    assertTrue(batcher.isDue(IDLE, IDLE, MAX), "the rest goes out as the next batch, not after another window");
    assertEquals(List.of(pod("c")), batcher.dispatch("provision/c/2", 2));
    assertFalse(batcher.isOpen());
  }

  @Test
  void aContinueAsNewCarriesTheOldestQueuedPodsUpToItsCap() {
    batcher.offer(List.of(pod("a"), pod("b"), pod("c")), 0);

    assertEquals(List.of(pod("a"), pod("b")), batcher.queued(2));
    assertEquals(3, batcher.queuedCount(), "reading the carry takes nothing out");
  }

  @Test
  void arrivalsOnlyMoveWhenSomethingNewWasQueued() {
    batcher.offer(List.of(pod("a")), 0);
    long seen = batcher.arrivals();
    batcher.offer(List.of(pod("a")), 10);
    assertEquals(seen, batcher.arrivals());
  }

  @Test
  void aRequeuedBatchIsDueAtOnceAndKeepsItsPodsFirst() {
    batcher.offer(List.of(pod("a")), 0);
    List<PodRef> pods = batcher.dispatch("provision/c/1", 100);
    batcher.offer(List.of(pod("b")), 50);

    batcher.requeue("provision/c/1", pods, 60);

    assertTrue(batcher.isDue(60, IDLE, MAX));
    assertEquals(List.of(pod("a"), pod("b")), batcher.queued());
    assertTrue(batcher.inFlightBatches().isEmpty());
  }

  @Test
  void aCarriedBatchKeepsItsPodsOutUntilItsReleaseTime() {
    PodBatcher batcher = new PodBatcher();
    batcher.adopt(new CarriedBatch("provision/c/7", List.of("uid-a"), 1_000));
    assertEquals(0, batcher.offer(List.of(new PodRef("ns", "a", "uid-a")), 500), "still in flight in the old run");
    assertEquals(List.of(new CarriedBatch("provision/c/7", List.of("uid-a"), 1_000)), batcher.carry(9_999),
        "an adopted batch keeps its release time when carried again");

    batcher.offer(List.of(), 1_000);
    assertEquals(List.of(new PodRef("ns", "a", "uid-a")), batcher.queued(), "released: batched again");
    assertTrue(batcher.inFlightBatches().isEmpty());
  }
}

package dev.farrier.activities.disruption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.planner.ClaimConditions;
import dev.farrier.planner.ClaimConditions.StatusCondition;
import dev.farrier.activities.kube.NodeClaimStore;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DisruptionConditionWriterTest {
  private static final Instant THEN = Instant.parse("2030-01-01T10:00:00Z");
  private static final Instant NOW = Instant.parse("2030-01-02T12:30:00.750Z");
  private static final Condition LAUNCHED = Condition.of(NodeClaimStatus.LAUNCHED, Condition.TRUE, "Launched", "", THEN);
  private static final StatusCondition AMI_DRIFT = new StatusCondition("Drifted", "AMIDrift", "image ami-old is not among ami-new");
  private static final List<String> BOTH = List.of("Drifted", "Expired");

  private static NodeClaim claimWith(Condition... conditions) {
    var claim = new NodeClaim();
    claim.getMetadata().setName("a");
    claim.setStatus(NodeClaimStatus.ofConditions(conditions));
    return claim;
  }

  private static List<Condition> afterWrite(NodeClaim claim, DisruptionConditionWriter.Change change) {
    return Conditions.merge(claim.getStatus().conditions(), change.set(), change.removed());
  }

  @Test
  void aNewDriftIsSetTrueNow() {
    var claim = claimWith(LAUNCHED);

    var change = DisruptionConditionWriter.change(claim, new ClaimConditions("a", List.of(AMI_DRIFT), List.of("Expired")), NOW)
        .orElseThrow();

    assertEquals(List.of(LAUNCHED, new Condition("Drifted", "True", null, "2030-01-02T12:30:00Z", "AMIDrift",
        "image ami-old is not among ami-new")), afterWrite(claim, change));
    assertEquals("Drifted=True reason=AMIDrift message=\"image ami-old is not among ami-new\"", change.summary());
  }

  @Test
  void anUnchangedDriftIsNotWrittenAgain() {
    var claim = claimWith(LAUNCHED, Condition.of("Drifted", Condition.TRUE, "AMIDrift", "image ami-old is not among ami-new", THEN));

    assertEquals(Optional.empty(),
        DisruptionConditionWriter.change(claim, new ClaimConditions("a", List.of(AMI_DRIFT), List.of("Expired")), NOW));
  }

  @Test
  void anotherReasonWhileStillDriftedKeepsTheTransitionTime() {
    var claim = claimWith(Condition.of("Drifted", Condition.TRUE, "NodePoolDrifted", "nodepool-hash differs", THEN));

    var change = DisruptionConditionWriter.change(claim, new ClaimConditions("a", List.of(AMI_DRIFT), List.of()), NOW).orElseThrow();

    var drifted = Conditions.find(afterWrite(claim, change), "Drifted").orElseThrow();
    assertEquals("AMIDrift", drifted.reason());
    assertEquals("2030-01-01T10:00:00Z", drifted.lastTransitionTime(), "the status did not change, so neither does its time");
  }

  @Test
  void aDriftNoLongerThereIsRemovedAndOtherConditionsStay() {
    var claim = claimWith(LAUNCHED, Condition.of("Drifted", Condition.TRUE, "AMIDrift", "old", THEN),
        Condition.of("Expired", Condition.TRUE, "Expired", "older than expireAfter 1h", THEN));

    var change = DisruptionConditionWriter.change(claim, new ClaimConditions("a", List.of(), BOTH), NOW).orElseThrow();

    assertEquals(List.of(LAUNCHED), afterWrite(claim, change));
    assertEquals("Drifted removed, Expired removed", change.summary());
  }

  @Test
  void removingWhatIsAbsentOrLeavingAnUndecidedDriftWritesNothing() {
    var clean = claimWith(LAUNCHED);
    var drifted = claimWith(LAUNCHED, Condition.of("Drifted", Condition.TRUE, "AMIDrift", "old", THEN));
    var noStatus = new NodeClaim();
    noStatus.getMetadata().setName("a");

    assertEquals(Optional.empty(), DisruptionConditionWriter.change(clean, new ClaimConditions("a", List.of(), BOTH), NOW));
    assertEquals(Optional.empty(), DisruptionConditionWriter.change(drifted, new ClaimConditions("a", List.of(), List.of("Expired")), NOW),
        "Drifted in neither list is left as it is");
    assertEquals(Optional.empty(), DisruptionConditionWriter.change(noStatus, new ClaimConditions("a", List.of(), BOTH), NOW));
  }

  @Test
  void anExpiredClaimGetsExpiredTrue() {
    var claim = claimWith(LAUNCHED);
    var expired = new StatusCondition("Expired", "Expired", "older than expireAfter 720h (created at 2029-12-01T00:00:00Z)");

    var change = DisruptionConditionWriter.change(claim, new ClaimConditions("a", List.of(expired), List.of("Drifted")), NOW).orElseThrow();

    var written = Conditions.find(afterWrite(claim, change), "Expired").orElseThrow();
    assertTrue(written.isTrue());
    assertEquals("older than expireAfter 720h (created at 2029-12-01T00:00:00Z)", written.message());
  }

  /**
   * A writer on a store whose write of claim {@code held} waits until {@code release} (the API server slow to answer),
   * noting every claim written.
   */
  private static final class HeldWriter {
    final List<String> written = new CopyOnWriteArrayList<>();
    final CountDownLatch reached = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final DisruptionConditionWriter writer;

    HeldWriter(String held) {
      NodeClaimStore store = (NodeClaimStore) Proxy.newProxyInstance(DisruptionConditionWriterTest.class.getClassLoader(),
          new Class<?>[] {NodeClaimStore.class}, (proxy, method, args) -> {
            if (!method.getName().equals("patchNodeClaimConditions")) {
              throw new UnsupportedOperationException(method.getName());
            }
            if (held.equals(args[0])) {
              reached.countDown();
              assertTrue(release.await(1, TimeUnit.MINUTES), "released");
            }
            written.add((String) args[0]);
            return null;
          });
      writer = new DisruptionConditionWriter(store, Clock.systemUTC());
    }

    void awaitHeld() throws InterruptedException {
      assertTrue(reached.await(1, TimeUnit.MINUTES), "the writer's thread reached " + written);
    }
  }

  /** Claims named {@code prefix0..} with no Drifted condition, and the targets that drift them all. */
  private static List<NodeClaim> claims(String prefix, int count) {
    List<NodeClaim> claims = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      var claim = claimWith(LAUNCHED);
      claim.getMetadata().setName(prefix + i);
      claims.add(claim);
    }
    return claims;
  }

  private static List<ClaimConditions> drifting(List<NodeClaim> claims) {
    return claims.stream().map(c -> new ClaimConditions(c.getMetadata().getName(), List.of(AMI_DRIFT), List.of())).toList();
  }

  @Test
  void aRoundHandsItsPassOverAndReturnsBeforeAnyWriteIsDone() throws Exception {
    var held = new HeldWriter("c0");
    var claims = claims("c", 3);

    held.writer.submit(claims, drifting(claims));

    held.awaitHeld();
    assertEquals(List.of(), held.written, "the round returned while its first write was still waiting for the API server");
    held.release.countDown();
    held.writer.awaitWrites(Duration.ofMinutes(1));
    assertEquals(List.of("c0", "c1", "c2"), held.written);
  }

  @Test
  void aNewerPassStopsTheOneBeingWrittenAndOnlyTheNewestWaitingPassIsWritten() throws Exception {
    var held = new HeldWriter("a0");
    var first = claims("a", 10);
    var skipped = claims("b", 2);
    var newest = claims("c", 3);

    held.writer.submit(first, drifting(first));
    held.awaitHeld();
    held.writer.submit(skipped, drifting(skipped));
    held.writer.submit(newest, drifting(newest));
    held.release.countDown();
    held.writer.awaitWrites(Duration.ofMinutes(1));

    assertEquals(List.of("a0", "c0", "c1", "c2"), held.written,
        "the first pass stops after its current write; the pass replaced before it began is never written");
  }
}

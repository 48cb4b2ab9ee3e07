package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.workflows.planner.ClaimConditions;
import dev.farrier.workflows.planner.ClaimConditions.StatusCondition;
import dev.farrier.activities.cloud.MutableClock;
import dev.farrier.activities.kube.NodeClaimStore;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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

  @Test
  void aPassStopsWritingOnceItsTimeIsSpentAndLeavesTheRestToTheNextOne() {
    // An API server answering each write in 1 s (a loaded control plane): the pass must not hold the planning round.
    var clock = new MutableClock(NOW);
    List<String> written = new ArrayList<>();
    NodeClaimStore store = (NodeClaimStore) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {NodeClaimStore.class},
        (proxy, method, args) -> {
          if (!method.getName().equals("patchNodeClaimConditions")) {
            throw new UnsupportedOperationException(method.getName());
          }
          written.add((String) args[0]);
          clock.advance(Duration.ofSeconds(1));
          return null;
        });
    List<NodeClaim> claims = new ArrayList<>();
    List<ClaimConditions> targets = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      var claim = claimWith(LAUNCHED);
      claim.getMetadata().setName("c" + i);
      claims.add(claim);
      targets.add(new ClaimConditions("c" + i, List.of(AMI_DRIFT), List.of()));
    }

    int count = new DisruptionConditionWriter(store, clock).write(claims, targets);

    long budget = DisruptionConditionWriter.TIME_PER_PASS.toSeconds();
    assertEquals(budget, count);
    assertEquals(List.of("c0", "c1", "c2").subList(0, (int) budget), written);
  }

}

package dev.farrier.activities;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.workflows.planner.ClaimConditions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings NodeClaims' {@code Drifted}, {@code Expired} and {@code Consolidatable} conditions to what {@code DisruptionConditions} decided. Only a
 * claim whose listed conditions differ is written, so a planning pass that changes nothing writes nothing; the write is
 * {@link NodeClaimStore#patchNodeClaimConditions} (status subresource, resourceVersion precondition, retried on conflict,
 * an unchanged status keeps its lastTransitionTime). A failed write is logged and left to the next pass: the conditions
 * inform, the plan decides, so they never fail the planning.
 */
final class DisruptionConditionWriter {
  private static final Logger log = LoggerFactory.getLogger(DisruptionConditionWriter.class);
  /**
   * Writes per pass, so a change that drifts a whole fleet at once (a new AMI) stays well inside the activity's
   * timeout; the rest are written by the next passes (every 10 s).
   */
  static final int MAX_WRITES_PER_PASS = 100;
  /**
   * Time a pass may spend writing; the rest waits for the next pass. The writes happen inside the disruption round's
   * planning activity: on a loaded API server (0.45 s a write, a 500-node fleet drifting) 100 writes held every round
   * for 45 s, and freed budget slots waited for the round.
   */
  static final Duration TIME_PER_PASS = Duration.ofSeconds(2);

  private final NodeClaimStore cluster;
  private final Clock clock;

  DisruptionConditionWriter(NodeClaimStore cluster, Clock clock) {
    this.cluster = cluster;
    this.clock = clock;
  }

  /** What to write to one claim: {@code set} merged by type, {@code removed} taken out; {@code summary} for the log. */
  record Change(String nodeClaim, List<Condition> set, List<String> removed, String summary) {}

  /** Writes the changes {@code targets} make to {@code claims} (as listed); returns how many claims were written. */
  int write(List<NodeClaim> claims, List<ClaimConditions> targets) {
    Map<String, NodeClaim> byName = claims.stream().collect(Collectors.toMap(c -> c.getMetadata().getName(), Function.identity()));
    Instant now = clock.instant();
    List<Change> changes = new ArrayList<>();
    for (ClaimConditions target : targets) {
      NodeClaim claim = byName.get(target.nodeClaim());
      if (claim != null) {
        change(claim, target, now).ifPresent(changes::add);
      }
    }
    int written = 0;
    int tried = 0;
    Instant stopAt = now.plus(TIME_PER_PASS);
    for (Change change : changes.subList(0, Math.min(changes.size(), MAX_WRITES_PER_PASS))) {
      if (!clock.instant().isBefore(stopAt)) {
        break;
      }
      tried++;
      try {
        cluster.patchNodeClaimConditions(change.nodeClaim(), change.set(), change.removed());
        written++;
        log.info("nodeclaim conditions written nodeclaim={} {}", change.nodeClaim(), change.summary());
      } catch (RuntimeException e) {
        log.warn("nodeclaim conditions not written, next pass tries again nodeclaim={} {} error={}", change.nodeClaim(),
            change.summary(), e.toString());
      }
    }
    if (changes.size() > tried) {
      log.info("nodeclaim conditions deferred to the next pass count={}", changes.size() - tried);
    }
    return written;
  }

  /** The write that brings {@code claim}'s conditions to {@code target}, or empty when they are there already. */
  static Optional<Change> change(NodeClaim claim, ClaimConditions target, Instant now) {
    List<Condition> stored = claim.getStatus() == null ? List.of() : claim.getStatus().conditionsOrEmpty();
    List<Condition> set = target.set().stream()
        .map(c -> Condition.of(c.type(), c.status() ? Condition.TRUE : Condition.FALSE, c.reason(), c.message(), now)).toList();
    List<Condition> merged = Conditions.merge(stored, set, target.removed());
    if (merged.equals(stored)) {
      return Optional.empty();
    }
    List<String> summary = new ArrayList<>();
    for (Condition c : merged) {
      if (!stored.contains(c)) {
        summary.add(c.type() + "=" + c.status() + " reason=" + c.reason() + " message=\"" + c.message() + "\"");
      }
    }
    stored.stream().filter(c -> target.removed().contains(c.type())).forEach(c -> summary.add(c.type() + " removed"));
    return Optional.of(new Change(target.nodeClaim(), set, target.removed(), String.join(", ", summary)));
  }
}

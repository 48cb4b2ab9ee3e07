package dev.farrier.activities.disruption;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.planner.ClaimConditions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
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
 *
 * <p>A planning round hands its pass over ({@link #submit}) and returns its plan at once: the writes happen on this
 * writer's own thread, off the round's path. On a loaded API server (0.2-0.45 s a write, a 500-node fleet drifting) the
 * writes had held every round for the 2 s they were allowed, and a freed budget slot waited for them. A pass handed
 * over while another is being written stops that one after its current write: the newer pass lists the claims as they
 * are now, so it carries whatever the older one had left.
 */
public final class DisruptionConditionWriter {
  private static final Logger log = LoggerFactory.getLogger(DisruptionConditionWriter.class);

  private final NodeClaimStore cluster;
  private final Clock clock;
  /** The newest pass handed over and not begun; a newer one replaces it. */
  private final AtomicReference<Pass> waiting = new AtomicReference<>();
  /** One thread, started when a pass is handed over and let go after a minute without one. */
  private final ThreadPoolExecutor writer;
  /** The writing of the last pass handed over (it follows all the ones before it). */
  private volatile Future<?> last = CompletableFuture.completedFuture(null);

  public DisruptionConditionWriter(NodeClaimStore cluster, Clock clock) {
    this.cluster = cluster;
    this.clock = clock;
    this.writer = new ThreadPoolExecutor(1, 1, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
        Thread.ofPlatform().daemon().name("farrier-condition-writer").factory());
    writer.allowCoreThreadTimeOut(true);
  }

  /** What to write to one claim: {@code set} merged by type, {@code removed} taken out; {@code summary} for the log. */
  record Change(String nodeClaim, List<Condition> set, List<String> removed, String summary) {}

  private record Pass(List<NodeClaim> claims, List<ClaimConditions> targets) {}

  /** Hands a pass over to the writer's thread and returns at once. */
  synchronized void submit(List<NodeClaim> claims, List<ClaimConditions> targets) {
    if (waiting.getAndSet(new Pass(claims, targets)) == null) {
      last = writer.submit(() -> {
        Pass pass = waiting.getAndSet(null);
        if (pass != null) {
          write(pass.claims(), pass.targets());
        }
      });
    }
  }

  /** Waits until every pass handed over so far is written (or left to the next one). */
  void awaitWrites(Duration timeout) throws InterruptedException, ExecutionException, TimeoutException {
    last.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Writes the changes {@code targets} make to {@code claims} (as listed), stopping early when a newer pass is waiting;
   * returns how many claims were written.
   */
  public int write(List<NodeClaim> claims, List<ClaimConditions> targets) {
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
    for (Change change : changes) {
      if (waiting.get() != null) {
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
      log.info("nodeclaim conditions left to the newer pass count={}", changes.size() - tried);
    }
    return written;
  }

  /** The write that brings {@code claim}'s conditions to {@code target}, or empty when they are there already. */
  static Optional<Change> change(NodeClaim claim, ClaimConditions target, Instant now) {
    List<Condition> stored = claim.getStatus() == null ? List.of() : claim.getStatus().conditionsOrEmpty();
    List<Condition> set = target.set().stream()
        .map(c -> Condition.of(c.type(), c.status() ? Condition.TRUE : Condition.FALSE, c.reason(), c.message(), now)).toList();
    // As the write will stamp them, so that an unchanged condition is seen as unchanged.
    List<Condition> merged = Conditions.merge(stored, Conditions.observedAt(claim.getMetadata().getGeneration(), set), target.removed());
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

package dev.farrier.activities.nodepool;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.NodePool;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A NodePool's {@code NodeRegistrationHealthy} condition, as Karpenter v1.14.1 keeps it: the outcomes of its last
 * {@value #OUTCOMES} launches (registered, or failed to launch or register), and False once half of those slots hold
 * failures (two, even of fewer outcomes), reason {@value #REGISTRATION_FAILED} and message {@value #FAILED_MESSAGE}
 * when the node did not register, or the launch's reason and message; True as soon as fewer do and a node registers.
 * Unknown ({@value #AWAITING}) when the pool is new or its spec or its EC2NodeClass's changed since the condition
 * was computed, which also forgets the outcomes. Not part of Ready, as upstream.
 *
 * <p>The outcomes live in this worker's memory (Karpenter's live in its leader's): after a restart, or on another
 * replica, they start again from the condition as stored (True counts as one success, False as two failures). A
 * claim's outcome is kept once, however often an activity that records it is retried.
 */
public final class RegistrationHealth {
  public static final String CONDITION = "NodeRegistrationHealthy";
  static final int OUTCOMES = 4;
  static final String REGISTRATION_FAILED = "RegistrationFailed";
  static final String FAILED_MESSAGE = "Failed to register node";
  static final String AWAITING = "AwaitingReconciliation";
  private static final String AWAITING_MESSAGE = "object is awaiting reconciliation";

  /** What the outcomes were counted against: the pool's generation and the class generation it saw. */
  private record Basis(Long generation, Long nodeClassGeneration) {}

  private static final class Outcomes {
    Basis basis;
    /** Claim name to registered, oldest first, at most {@link #OUTCOMES}. */
    final LinkedHashMap<String, Boolean> last = new LinkedHashMap<>();
  }

  private final Map<String, Outcomes> byPool = new ConcurrentHashMap<>();

  /** A node of the pool registered: the condition to write (True), or null when it stays as it is. */
  public Condition registered(NodePool pool, String claim, Instant now) {
    return record(pool, claim, true, null, null, now);
  }

  /** A launch of the pool failed to launch or register: the condition to write (False), or null when it stays. */
  public Condition failed(NodePool pool, String claim, boolean launched, String reason, String message, Instant now) {
    return launched ? record(pool, claim, false, REGISTRATION_FAILED, FAILED_MESSAGE, now)
        : record(pool, claim, false, reason, message, now);
  }

  private Condition record(NodePool pool, String claim, boolean registered, String reason, String message, Instant now) {
    String uid = Objects.requireNonNullElse(pool.getMetadata().getUid(), pool.getMetadata().getName());
    Outcomes outcomes = byPool.computeIfAbsent(uid, k -> new Outcomes());
    synchronized (outcomes) {
      Condition current = pool.getStatus() == null ? null : Conditions.find(pool.getStatus().conditions(), CONDITION).orElse(null);
      Basis basis = new Basis(pool.getMetadata().getGeneration(),
          pool.getStatus() == null ? null : pool.getStatus().nodeClassObservedGeneration());
      if (!basis.equals(outcomes.basis)) {
        outcomes.basis = basis;
        outcomes.last.clear();
      }
      if (outcomes.last.isEmpty() && current != null && Objects.equals(current.observedGeneration(), basis.generation())) {
        if (current.isTrue()) {
          outcomes.last.put("(stored True)", true);
        } else if (Condition.FALSE.equals(current.status())) {
          outcomes.last.put("(stored False 1)", false);
          outcomes.last.put("(stored False 2)", false);
        }
      }
      outcomes.last.remove(claim);
      outcomes.last.put(claim, registered);
      while (outcomes.last.size() > OUTCOMES) {
        outcomes.last.remove(outcomes.last.keySet().iterator().next());
      }
      boolean healthy = !unhealthy(new ArrayList<>(outcomes.last.values()));
      if (registered && healthy && (current == null || !current.isTrue())) {
        return Condition.of(CONDITION, Condition.TRUE, CONDITION, "", now);
      }
      if (!registered && !healthy && (current == null || !Condition.FALSE.equals(current.status()))) {
        return Condition.of(CONDITION, Condition.FALSE, reason, message, now);
      }
      return null;
    }
  }

  /** Karpenter's threshold: failures fill at least half of the {@value #OUTCOMES} slots. */
  static boolean unhealthy(List<Boolean> outcomes) {
    long failures = outcomes.stream().filter(ok -> !ok).count();
    return failures * 2 >= OUTCOMES;
  }

  /**
   * Unknown when the pool has no such condition yet, or its spec ({@code metadata.generation}) or its EC2NodeClass
   * changed since the condition was computed; null when the stored one stands.
   */
  public static Condition resetIfStale(NodePool pool, EC2NodeClass nodeClass, Instant now) {
    if (nodeClass == null) {
      return null; // as upstream: a pool without its class is left alone (NodeClassReady says why)
    }
    Condition current = pool.getStatus() == null ? null : Conditions.find(pool.getStatus().conditions(), CONDITION).orElse(null);
    Long seenClass = pool.getStatus() == null ? null : pool.getStatus().nodeClassObservedGeneration();
    boolean stale = current == null || !Objects.equals(current.observedGeneration(), pool.getMetadata().getGeneration())
        || !Objects.equals(seenClass, nodeClass.getMetadata().getGeneration());
    return stale ? Condition.of(CONDITION, Condition.UNKNOWN, AWAITING, AWAITING_MESSAGE, now) : null;
  }
}

package dev.farrier.sandbox.bench.peer;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * When a fleet has settled: the same nodes and NodeClaims for a whole window, no pod waiting, every NodeClaim a node,
 * none being deleted and no node marked for disruption. It settled at its last change, so the time to settle does
 * not include the window the harness waits to be sure. Where the controller is expected to act, a fleet it has not
 * touched yet must stay unchanged for longer ({@code untouched}): its first move comes after consolidateAfter, its
 * decision loop and its validation, later on a loaded machine than its next ones. After a scale-down the harness
 * waits for that move as long as the phase may last (in one {@code .ci/run} Karpenter's came more than 110 s after
 * it); after the drift's setup, which may leave no node empty, twice the window.
 */
final class Settling {
  /** One look at the cluster. */
  record Snapshot(Instant at, Set<String> nodes, Set<String> claims, long waitingPods, boolean disrupting) {
    boolean quiet() {
      return waitingPods == 0 && !disrupting && claims.size() == nodes.size();
    }
  }

  private Snapshot last;
  private Instant lastChange;
  private boolean quietSeen;
  private boolean moved;

  void observe(Snapshot snapshot) {
    if (last == null || !snapshot.nodes().equals(last.nodes()) || !snapshot.claims().equals(last.claims())
        || snapshot.quiet() != last.quiet()) {
      // A move is a change once the fleet has been quiet: the pods of the phase's own setup starting (the drift's
      // Deployment) are not one.
      moved |= quietSeen;
      lastChange = snapshot.at();
    }
    quietSeen |= snapshot.quiet();
    last = snapshot;
  }

  /**
   * The last change, if the fleet has been quiet and unchanged since then for {@code window}, or for {@code untouched}
   * (the longer of the two) when nothing has changed since it was first quiet.
   */
  Optional<Instant> settled(Duration window, Duration untouched) {
    Duration needed = !moved && untouched.compareTo(window) > 0 ? untouched : window;
    if (last == null || !last.quiet() || Duration.between(lastChange, last.at()).compareTo(needed) < 0) {
      return Optional.empty();
    }
    return Optional.of(lastChange);
  }

  Optional<Snapshot> last() {
    return Optional.ofNullable(last);
  }
}

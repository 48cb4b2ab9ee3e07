package dev.farrier.sandbox.bench.peer;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * When a fleet has settled: the same nodes and NodeClaims for a whole window, no pod waiting, every NodeClaim a node,
 * none being deleted and no node marked for disruption. It settled at its last change, so the time to settle does
 * not include the window the harness waits to be sure.
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

  void observe(Snapshot snapshot) {
    if (last == null || !snapshot.nodes().equals(last.nodes()) || !snapshot.claims().equals(last.claims())
        || snapshot.quiet() != last.quiet()) {
      lastChange = snapshot.at();
    }
    last = snapshot;
  }

  /** The last change, if the fleet has been quiet and unchanged since then for {@code window}. */
  Optional<Instant> settled(Duration window) {
    if (last == null || !last.quiet() || Duration.between(lastChange, last.at()).compareTo(window) < 0) {
      return Optional.empty();
    }
    return Optional.of(lastChange);
  }

  Optional<Snapshot> last() {
    return Optional.ofNullable(last);
  }
}

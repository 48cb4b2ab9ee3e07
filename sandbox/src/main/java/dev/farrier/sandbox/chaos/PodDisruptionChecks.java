package dev.farrier.sandbox.chaos;

import dev.farrier.sandbox.chaos.Observation.Pdb;
import dev.farrier.sandbox.chaos.Observation.PodChange;
import dev.farrier.sandbox.chaos.Observation.PodState;
import dev.farrier.sandbox.chaos.Violation.Invariant;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The invariants about pods leaving (issue 43's 1 and 5), checked on each pod change the watch delivered, in order,
 * against the pods as they stood right after it: the pods of the previous observation with the changes up to that one
 * applied. A pod is disrupted at its first change that marks it ({@code DisruptionTarget}), sets its
 * {@code deletionTimestamp} or deletes it; only a pod seen before undisrupted is judged (one first seen already
 * leaving tells nothing about how it left).
 */
final class PodDisruptionChecks {
  /** Node repair's reason: it deletes pods past their PDBs by design (docs/SAFETY.md), as Karpenter's repair. */
  static final String REPAIR_REASON = "unhealthy";

  private final Map<String, PodState> pods = new HashMap<>();
  private int checked;
  private int unjudged;
  private boolean afterGap;

  /** The violations among {@code now}'s pod changes; afterwards the pods are {@code now}'s. */
  void check(Observation now, NodesSeen nodes, boolean afterGap, Consumer<Violation> found) {
    this.afterGap = afterGap;
    for (PodChange change : now.podChanges()) {
      PodState before = pods.get(change.pod().key());
      if (change.deleted()) {
        pods.remove(change.pod().key());
      } else {
        pods.put(change.pod().key(), change.pod());
      }
      if (change.finalStateUnknown()) {
        unjudged++;
        continue;
      }
      if (before != null && !before.disrupted() && (change.deleted() || change.pod().disrupted())) {
        checked++;
        PodState left = change.pod();
        protectedPod(now.at(), before, left, nodes, found);
        pdbFloor(now, before, left, change.deleted(), nodes, found);
      }
    }
    pods.clear();
    now.pods().forEach(pod -> pods.put(pod.key(), pod));
  }

  /** How many pod deletions were not judged: learnt from a re-list of the watch, how they left is unknown. */
  int unjudged() {
    return unjudged;
  }

  /** How many pod disruptions were judged. */
  int checked() {
    return checked;
  }

  private static void protectedPod(Instant at, PodState before, PodState left, NodesSeen nodes, Consumer<Violation> found) {
    if (!PodState.EVICTION.equals(left.disruptionTarget())) {
      return;
    }
    if (before.ownerKind() != null && before.ownerKind().equals("DaemonSet") && before.toleratesDisrupted()) {
      found.accept(new Violation(at, Invariant.PROTECTED_POD, before.key(), "DaemonSet pod tolerating karpenter.sh/disrupted"
          + " evicted from node " + before.node()));
    } else if (before.doNotDisrupt() && !nodes.involuntarilyReplaced(before.node())) {
      found.accept(new Violation(at, Invariant.PROTECTED_POD, before.key(), "do-not-disrupt pod evicted from node " + before.node()
          + " while no involuntary replacement of the node runs"));
    }
  }

  private void pdbFloor(Observation now, PodState before, PodState left, boolean deleted, NodesSeen nodes, Consumer<Violation> found) {
    String reason = left.disruptionTarget();
    boolean voluntary = reason == null || reason.equals(PodState.EVICTION);
    if (!voluntary || !before.healthy() || before.node() == null || !nodes.instanceLive(before.node())
        || nodes.replacedFor(before.node(), REPAIR_REASON)) {
      return;
    }
    for (Pdb pdb : now.pdbs()) {
      if (pdb.selects(before)) {
        long healthy = pods.values().stream().filter(pdb::selects).filter(PodState::healthy).count();
        if (afterGap) {
          // A batch after the watch was cut off comes from its re-list, in the re-list's order, not the cluster's: a
          // pod created while it was cut off may come after the eviction it replaced. The pods as the batch ends count too.
          healthy = Math.max(healthy, now.pods().stream().filter(pdb::selects).filter(PodState::healthy).count());
        }
        if (healthy < pdb.floor()) {
          found.accept(new Violation(now.at(), Invariant.PDB_FLOOR, pdb.key(), "pod " + before.key() + " on node " + before.node()
              + (reason != null ? " evicted (" + reason + ")" : deleted ? " deleted" : " deleted (deletionTimestamp set)")
              + ": " + healthy + " healthy, floor " + pdb.floor()));
        }
      }
    }
  }
}

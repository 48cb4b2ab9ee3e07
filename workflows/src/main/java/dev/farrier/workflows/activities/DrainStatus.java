package dev.farrier.workflows.activities;

import java.util.List;

/**
 * What one drain pass did and what is left.
 *
 * @param evicted       pods evicted (or deleted) by this pass, as namespace/name
 * @param remaining     pods still on the node that must leave before it can go (not mirror pods, finished pods or
 *                      pods that tolerate {@code karpenter.sh/disrupted:NoSchedule})
 * @param blockingPdbs  PodDisruptionBudgets (namespace/name) that refused an eviction in this pass
 * @param doNotDisrupt  pods with {@code karpenter.sh/do-not-disrupt} that this pass did not evict
 * @param failures      pods whose eviction failed for another reason, with the error (e.g. a pod two PDBs cover);
 *                      one bad pod never stops the pass for the others
 * @param held          every pod this pass left on the node on purpose or by refusal, with the cause (the lists above
 *                      say the same per cause; this one also names pods without a controller and which PDB holds each)
 * @param group         the drain group this pass worked on, the first with pods left (null when none is left, and in
 *                      passes from before drain groups)
 * @param deferred      pods of later groups this pass left alone because {@code group} is not gone yet (part of
 *                      {@code remaining}); a forced pass defers nothing
 * @param surgeable     pods a PDB refused that are opted in to a surge ({@code farrier.dev/surge}) and owned by a
 *                      Deployment (through its ReplicaSet): the replacement asks {@link NodeActivities#surge} for each
 */
public record DrainStatus(List<String> evicted, List<String> remaining, List<String> blockingPdbs, List<String> doNotDisrupt,
    List<String> failures, List<HeldPod> held, DrainGroup group, List<String> deferred, List<String> surgeable) {
  public DrainStatus {
    surgeable = surgeable == null ? List.of() : List.copyOf(surgeable);
    evicted = List.copyOf(evicted);
    remaining = List.copyOf(remaining);
    blockingPdbs = List.copyOf(blockingPdbs);
    doNotDisrupt = List.copyOf(doNotDisrupt);
    failures = failures == null ? List.of() : List.copyOf(failures);
    held = held == null ? List.of() : List.copyOf(held);
    deferred = deferred == null ? List.of() : List.copyOf(deferred);
  }

  public DrainStatus(List<String> evicted, List<String> remaining, List<String> blockingPdbs, List<String> doNotDisrupt,
      List<String> failures, List<HeldPod> held, DrainGroup group, List<String> deferred) {
    this(evicted, remaining, blockingPdbs, doNotDisrupt, failures, held, group, deferred, List.of());
  }

  public DrainStatus(List<String> evicted, List<String> remaining, List<String> blockingPdbs, List<String> doNotDisrupt,
      List<String> failures, List<HeldPod> held) {
    this(evicted, remaining, blockingPdbs, doNotDisrupt, failures, held, null, List.of());
  }

  public DrainStatus(List<String> evicted, List<String> remaining, List<String> blockingPdbs, List<String> doNotDisrupt) {
    this(evicted, remaining, blockingPdbs, doNotDisrupt, List.of(), List.of());
  }

  /** A pass that reports its held pods only through {@code held}; the per-cause lists are derived from it. */
  public static DrainStatus of(List<String> evicted, List<String> remaining, List<HeldPod> held) {
    return of(evicted, remaining, held, null, List.of());
  }

  /** As {@link #of(List, List, List)}, for a pass that worked on {@code group} and left {@code deferred} for later. */
  public static DrainStatus of(List<String> evicted, List<String> remaining, List<HeldPod> held, DrainGroup group,
      List<String> deferred) {
    return of(evicted, remaining, held, group, deferred, List.of());
  }

  /** As {@link #of(List, List, List, DrainGroup, List)}, naming the held pods opted in to a surge. */
  public static DrainStatus of(List<String> evicted, List<String> remaining, List<HeldPod> held, DrainGroup group,
      List<String> deferred, List<String> surgeable) {
    List<String> pdbs = held.stream().filter(h -> h.cause() == HeldPod.Cause.PDB).map(HeldPod::detail).distinct().toList();
    List<String> doNotDisrupt = held.stream().filter(h -> h.cause() == HeldPod.Cause.DO_NOT_DISRUPT).map(HeldPod::pod).toList();
    List<String> failures = held.stream().filter(h -> h.cause() == HeldPod.Cause.EVICTION_FAILED)
        .map(h -> h.pod() + ": " + h.detail()).toList();
    return new DrainStatus(evicted, remaining, pdbs, doNotDisrupt, failures, held, group, deferred, surgeable);
  }

  public boolean drained() {
    return remaining.isEmpty();
  }
}

package dev.farrier.workflows.replacement;

import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.HeldPod;
import dev.farrier.workflows.activities.SurgeOutcome;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The drain's decisions, apart from the workflow that acts on them: when PodDisruptionBudgets stop holding, how long
 * to wait before the next pass, and what blocks the drain. Pure, so it is tested without a Temporal environment.
 */
final class DrainPolicy {
  /** A blocker's one-line summary is a search attribute value too: kept short enough to read in a table. */
  static final int SUMMARY_LIMIT = 200;
  private static final int PODS_NAMED = 3;

  private DrainPolicy() {}

  /** The wait before the next pass and the backoff to use after it. */
  record Wait(long millis, long nextSeconds) {}

  /** When the NodePool's terminationGracePeriod ends for a drain starting at {@code nowMillis}. */
  static long graceEndsAt(Long gracePeriodSeconds, long nowMillis) {
    return gracePeriodSeconds == null ? Long.MAX_VALUE : nowMillis + gracePeriodSeconds * 1000;
  }

  /**
   * PDBs and do-not-disrupt stop holding once the user's terminationGracePeriod expired, or an operator forced the
   * drain; never otherwise.
   */
  static boolean bypassPdb(long nowMillis, long graceEndsAtMillis, boolean forced) {
    return forced || nowMillis >= graceEndsAtMillis;
  }

  /** How often a drain that does not finish asks the cloud whether the node's instance is still there. */
  static final long INSTANCE_CHECK_MILLIS = 60_000;

  /**
   * Whether to ask the cloud, after a pass that left pods, if the instance is gone (its pods then are dead and are
   * released at once): after every pass of a node being interrupted (EC2 takes it within minutes), else at most once
   * every {@link #INSTANCE_CHECK_MILLIS}.
   */
  static boolean checkInstance(long nowMillis, long lastCheckMillis, boolean urgent) {
    return urgent || nowMillis - lastCheckMillis >= INSTANCE_CHECK_MILLIS;
  }

  /**
   * Backs off from {@code firstSeconds} doubling to {@code maxSeconds} while nothing moves; looks again soon when
   * pods moved or the node is going away; never waits past the grace period's end.
   */
  static Wait nextWait(long currentSeconds, long firstSeconds, long maxSeconds, boolean podsMoved, boolean urgent,
      long nowMillis, long graceEndsAtMillis) {
    long seconds = podsMoved || urgent ? firstSeconds : currentSeconds;
    long millis = Math.max(0, Math.min(seconds * 1000, graceEndsAtMillis - nowMillis));
    return new Wait(millis, Math.min(seconds * 2, maxSeconds));
  }

  /**
   * What blocks the drain after a pass, or null when nothing does (drained, or pods only still terminating). The same
   * hold as {@code previous} keeps its first-seen time, so "blocked for" counts from the first refusal. When the held
   * pods' drain group holds later groups back, the summary says so first, e.g. "non-critical pods (drain group 1 of 4),
   * holding back 2 pod(s) of later groups: PodDisruptionBudget default/web", so an operator sees why critical pods wait.
   */
  static Blocker blocker(DrainStatus status, long nowMillis, Blocker previous) {
    if (status.drained()) {
      return null;
    }
    List<HeldPod> held = status.held().isEmpty() ? fromCauseLists(status) : status.held();
    if (held.isEmpty()) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    Blocker.Kind kind = null;
    for (HeldPod.Cause cause : HeldPod.Cause.values()) {
      List<HeldPod> ofCause = held.stream().filter(h -> h.cause() == cause).toList();
      if (ofCause.isEmpty()) {
        continue;
      }
      kind = kind == null ? kindOf(cause) : kind;
      parts.add(describe(cause, ofCause));
    }
    List<String> budgets = held.stream().filter(h -> h.cause() == HeldPod.Cause.PDB && h.detail() != null)
        .map(HeldPod::detail).distinct().toList();
    Set<String> pods = new LinkedHashSet<>();
    held.forEach(h -> pods.add(h.pod()));
    Blocker next = new Blocker(kind, truncate(holdingBack(status) + String.join("; ", parts)), budgets, List.copyOf(pods),
        nowMillis);
    return next.sameAs(previous) ? next.since(previous.sinceMillis()) : next;
  }

  /**
   * As {@link #blocker(DrainStatus, long, Blocker)}, with the surges this pass asked for: their pods are named by their
   * surge first ("surging deployment default/web: waiting for its new pod to be Ready", "surge of deployment
   * default/db refused: strategy Recreate ..."), then whatever else holds the drain.
   */
  static Blocker blocker(DrainStatus status, List<SurgeOutcome> surges, long nowMillis, Blocker previous) {
    List<SurgeOutcome> relevant = surges.stream().filter(s -> s.result() != SurgeOutcome.Result.NOT_APPLICABLE).toList();
    if (relevant.isEmpty() || status.drained()) {
      return blocker(status, nowMillis, previous);
    }
    Set<String> surged = new LinkedHashSet<>();
    relevant.forEach(s -> surged.add(s.pod()));
    List<HeldPod> others = status.held().stream().filter(h -> !surged.contains(h.pod())).toList();
    // The rest without the group's words: those lead the whole summary, surges and all.
    Blocker rest = blocker(DrainStatus.of(List.of(), status.remaining(), others), nowMillis, null);
    Set<String> parts = new LinkedHashSet<>();
    relevant.forEach(s -> parts.add(describe(s)));
    String summary = holdingBack(status) + String.join("; ", parts) + (rest == null ? "" : "; " + rest.summary());
    List<String> budgets = status.held().stream().filter(h -> h.cause() == HeldPod.Cause.PDB && h.detail() != null)
        .map(HeldPod::detail).distinct().toList();
    Set<String> pods = new LinkedHashSet<>(surged);
    others.forEach(h -> pods.add(h.pod()));
    Blocker next = new Blocker(Blocker.Kind.SURGE, truncate(summary), budgets, List.copyOf(pods), nowMillis);
    return next.sameAs(previous) ? next.since(previous.sinceMillis()) : next;
  }

  /** Every pod the pass held is one whose surge is in flight: the drain waits for a Deployment controller, nothing else. */
  static boolean onlySurgesInFlight(DrainStatus status, List<SurgeOutcome> surges) {
    Set<String> surging = new LinkedHashSet<>();
    surges.stream().filter(SurgeOutcome::surging).forEach(s -> surging.add(s.pod()));
    return !surging.isEmpty() && status.held().stream().allMatch(h -> surging.contains(h.pod()));
  }

  /** "drain group 1 of 4, holding back N pod(s) of later groups: " when the held group holds later ones back, else "". */
  private static String holdingBack(DrainStatus status) {
    return status.group() != null && !status.deferred().isEmpty()
        ? status.group().describe() + ", holding back " + status.deferred().size() + " pod(s) of later groups: " : "";
  }

  /** One surge that holds the drain (never a NOT_APPLICABLE answer: that pod is left to what else holds it), in words. */
  static String describe(SurgeOutcome surge) {
    String what = surge.deployment() == null ? "pod " + surge.pod() : "deployment " + surge.deployment();
    return switch (surge.result()) {
      case STARTED, SURGING -> "surging " + what + ": waiting for its new pod to be Ready";
      case STALLED -> "surge of " + what + " stalled: " + surge.reason();
      case REFUSED, NOT_APPLICABLE -> "surge of " + what + " refused: " + surge.reason();
    };
  }

  /** Before drain passes reported {@code held}: the PDB names hold every pod left, the other lists name theirs. */
  private static List<HeldPod> fromCauseLists(DrainStatus status) {
    List<HeldPod> held = new ArrayList<>();
    for (String pdb : status.blockingPdbs()) {
      status.remaining().forEach(pod -> held.add(new HeldPod(pod, HeldPod.Cause.PDB, pdb)));
    }
    status.doNotDisrupt().forEach(pod -> held.add(new HeldPod(pod, HeldPod.Cause.DO_NOT_DISRUPT, null)));
    for (String failure : status.failures()) {
      int colon = failure.indexOf(": ");
      held.add(new HeldPod(colon < 0 ? failure : failure.substring(0, colon), HeldPod.Cause.EVICTION_FAILED,
          colon < 0 ? null : failure.substring(colon + 2)));
    }
    return held;
  }

  private static String describe(HeldPod.Cause cause, List<HeldPod> held) {
    return switch (cause) {
      case PDB -> "PodDisruptionBudget " + String.join(", ", held.stream()
          .map(h -> h.detail() == null ? "(unknown)" : h.detail()).distinct().toList());
      case DO_NOT_DISRUPT -> "karpenter.sh/do-not-disrupt on " + pods(held);
      case NO_CONTROLLER -> "no controller (an eviction would delete it for good) for " + pods(held);
      case EVICTION_FAILED -> "eviction failing: " + String.join("; ", held.stream()
          .map(h -> h.pod() + (h.detail() == null ? "" : ": " + h.detail())).toList());
    };
  }

  private static String pods(List<HeldPod> held) {
    List<String> names = held.stream().map(HeldPod::pod).toList();
    return names.size() <= PODS_NAMED ? String.join(", ", names)
        : String.join(", ", names.subList(0, PODS_NAMED)) + " and " + (names.size() - PODS_NAMED) + " more";
  }

  private static Blocker.Kind kindOf(HeldPod.Cause cause) {
    return switch (cause) {
      case PDB -> Blocker.Kind.PDB;
      case DO_NOT_DISRUPT -> Blocker.Kind.DO_NOT_DISRUPT;
      case NO_CONTROLLER -> Blocker.Kind.NO_CONTROLLER;
      case EVICTION_FAILED -> Blocker.Kind.EVICTION_FAILED;
    };
  }

  static String truncate(String text) {
    return text.length() <= SUMMARY_LIMIT ? text : text.substring(0, SUMMARY_LIMIT - 1) + "…";
  }
}

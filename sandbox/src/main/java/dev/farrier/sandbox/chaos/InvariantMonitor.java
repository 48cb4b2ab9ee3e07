package dev.farrier.sandbox.chaos;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.activities.cloud.Ownership;
import dev.farrier.model.WellKnown;
import dev.farrier.sandbox.chaos.Observation.Claim;
import dev.farrier.sandbox.chaos.Observation.CloudInstance;
import dev.farrier.sandbox.chaos.Observation.Replacement;
import dev.farrier.sandbox.chaos.Violation.Invariant;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Checks a fleet's observations, one after another, against the promises of docs/SAFETY.md that can be seen from
 * outside the worker: PDB floors and protected pods on every pod disruption, NodePool budgets, one instance per
 * NodeClaim and one replacement per node, no orphan past the garbage collection grace, foreign instances untouched, no
 * runaway scale-up, and, once the faults stop, a settled fleet on its target. It reads only what an observation holds
 * (the cloud, the API server, Temporal's visibility), never Farrier's own state, so a bug in the worker cannot hide
 * from it. Not thread-safe: one collector feeds it.
 */
public final class InvariantMonitor {
  /**
   * The {@code FarrierReason}s of voluntary disruptions, the ones a NodePool's budgets limit: drift (a rollout's too),
   * the two consolidations and an opted-in rebalance recommendation (DisruptionPlanner's reasons). Not among them:
   * {@code expired} (forceful by default; a replace-first expiry carries the same reason and is not told apart),
   * {@code unhealthy}, {@code deleted}, {@code scaled_down} and the interruptions ({@code SpotInterruption},
   * {@code CapacityReservationInterruption}, {@code ScheduledChange}, {@code InstanceStateChange}).
   */
  public static final Set<String> BUDGETED_REASONS = Set.of("drifted", DisruptionCommand.REASON_UNDERUTILIZED,
      DisruptionCommand.REASON_EMPTY, "rebalance");

  private final String cluster;
  private final Set<String> foreign;
  private final Duration orphanGrace;
  private final Map<String, Integer> budgets;
  private final Set<String> budgetedReasons;
  private final int runawayMargin;
  private final Duration runawayWindow;
  private final int instanceCeiling;
  /** When each live Farrier instance without a NodeClaim was first seen so. */
  private final Map<String, Instant> orphanSince = new HashMap<>();
  /** The runs that completed with phase Done, per NodeClaim. */
  private final Map<String, Set<String>> completedRuns = new HashMap<>();
  private final PodDisruptionChecks podDisruptions = new PodDisruptionChecks();
  private final Map<Invariant, Integer> checked = new EnumMap<>(Invariant.class);
  /** Since when the claims launching have exceeded what is needed plus the margin, or null. */
  private Instant runawaySince;
  /** What the pending pods and running replacements needed over the last {@code runawayWindow}, oldest first. */
  private final java.util.ArrayDeque<Map.Entry<Instant, Long>> neededSeen = new java.util.ArrayDeque<>();
  /** Per NodePool, for how many observations in a row its voluntary disruptions were above its budget. */
  private final Map<String, Integer> overBudget = new HashMap<>();
  private Instant previousAt;
  private Instant afterGapUntil;

  /**
   * Observations further apart than this mean the monitor could not read for a while (the API server or Temporal down
   * or hung): the pod watch was likely cut off, and what it delivers next comes from a re-list.
   */
  static final Duration GAP = Duration.ofSeconds(3);
  /** How long after a gap a re-list may still be arriving. */
  static final Duration RELIST_SETTLES = Duration.ofSeconds(15);
  /**
   * How many observations in a row a NodePool must be above its budget to be reported: Temporal's visibility may list a
   * replacement as running for a moment after it closed.
   */
  static final int OVER_BUDGET_OBSERVATIONS = 2;
  private int checks;

  /**
   * @param cluster the cluster name Farrier tags its instances with
   * @param foreign the ids of instances in the account Farrier did not launch (the harness made them), live at the start
   * @param orphanGrace how long a Farrier instance may live without a NodeClaim: the garbage collection's grace and
   *     confirmation, plus the monitor's own margin
   * @param budgets per NodePool, the most nodes its budgets let be voluntarily disrupted at once (a NodePool absent
   *     is not checked)
   * @param budgetedReasons the replacement reasons its budgets limit ({@link #BUDGETED_REASONS}); a running replacement
   *     with another reason is involuntary
   * @param runawayMargin how many NodeClaims may be launching beyond the pending pods plus the running replacements
   * @param runawayWindow how long they may exceed it before it is a runaway (a node registering before its pods bind
   *     is a moment's race)
   * @param instanceCeiling the most live Farrier instances the fleet may ever have
   */
  public InvariantMonitor(String cluster, Set<String> foreign, Duration orphanGrace, Map<String, Integer> budgets,
      Set<String> budgetedReasons, int runawayMargin, Duration runawayWindow, int instanceCeiling) {
    this.cluster = cluster;
    this.foreign = Set.copyOf(foreign);
    this.orphanGrace = orphanGrace;
    this.budgets = Map.copyOf(budgets);
    this.budgetedReasons = Set.copyOf(budgetedReasons);
    this.runawayMargin = runawayMargin;
    this.runawayWindow = runawayWindow;
    this.instanceCeiling = instanceCeiling;
  }

  /** As the full constructor, with the voluntary reasons of {@link #BUDGETED_REASONS}. */
  public InvariantMonitor(String cluster, Set<String> foreign, Duration orphanGrace, Map<String, Integer> budgets,
      int runawayMargin, Duration runawayWindow, int instanceCeiling) {
    this(cluster, foreign, orphanGrace, budgets, BUDGETED_REASONS, runawayMargin, runawayWindow, instanceCeiling);
  }

  /** A monitor with no budgets, no runaway margin and no ceiling: the checks that need no fleet plan. */
  public InvariantMonitor(String cluster, Set<String> foreign, Duration orphanGrace) {
    this(cluster, foreign, orphanGrace, Map.of(), BUDGETED_REASONS, Integer.MAX_VALUE, Duration.ZERO, Integer.MAX_VALUE);
  }

  /** The violations this observation shows, given the ones before it. */
  public List<Violation> observe(Observation now) {
    checks++;
    List<Violation> found = new ArrayList<>();
    oneInstancePerClaim(now, found);
    noOrphanPastGrace(now, found);
    foreignUntouched(now, found);
    int before = podDisruptions.checked();
    if (previousAt != null && Duration.between(previousAt, now.at()).compareTo(GAP) > 0) {
      afterGapUntil = now.at().plus(RELIST_SETTLES);
    }
    previousAt = now.at();
    podDisruptions.check(now, new NodesSeen(now, liveFarriers(now).stream().map(i -> i.tags().get(WellKnown.TAG_NODECLAIM))
        .collect(Collectors.toSet()), budgetedReasons), afterGapUntil != null && !now.at().isAfter(afterGapUntil), found::add);
    count(Invariant.PDB_FLOOR, podDisruptions.checked() - before);
    count(Invariant.PROTECTED_POD, podDisruptions.checked() - before);
    budget(now, found);
    oneReplacementPerNode(now, found);
    runaway(now, found);
    return found;
  }

  /** The violations of a fleet that should have settled: {@link #observe} plus pods pending and workflows still running. */
  public List<Violation> settled(Observation now) {
    List<Violation> found = new ArrayList<>(observe(now));
    count(Invariant.SETTLED, 1);
    now.pendingPods().forEach(pod -> found.add(new Violation(now.at(), Invariant.SETTLED, pod, "still pending")));
    now.runningWorkflows().forEach(id -> found.add(new Violation(now.at(), Invariant.SETTLED, id, "still running")));
    return found;
  }

  /** How many pod deletions were not judged: the watch learnt of them from a re-list, so how they left is unknown. */
  public int unjudgedPodDeletions() {
    return podDisruptions.unjudged();
  }

  /** How many observations were checked. */
  public int checks() {
    return checks;
  }

  /**
   * How many times each invariant was evaluated: once per observation, except {@link Invariant#PDB_FLOOR} and
   * {@link Invariant#PROTECTED_POD} (once per pod disruption judged) and {@link Invariant#SETTLED} (once per
   * {@link #settled}). Every invariant is listed.
   */
  public Map<Invariant, Integer> checksByInvariant() {
    Map<Invariant, Integer> all = new EnumMap<>(Invariant.class);
    for (Invariant invariant : Invariant.values()) {
      all.put(invariant, checked.getOrDefault(invariant, 0));
    }
    return all;
  }

  private void count(Invariant invariant, int times) {
    checked.merge(invariant, times, Integer::sum);
  }

  private boolean farriers(CloudInstance instance) {
    Map<String, String> tags = instance.tags();
    return Ownership.OWNER_VALUE.equals(tags.get(WellKnown.TAG_OWNER)) && cluster.equals(tags.get(WellKnown.TAG_CLUSTER))
        && tags.get(WellKnown.TAG_NODECLAIM) != null && !foreign.contains(instance.id());
  }

  private List<CloudInstance> liveFarriers(Observation now) {
    return now.instances().stream().filter(CloudInstance::live).filter(this::farriers).toList();
  }

  private void oneInstancePerClaim(Observation now, List<Violation> found) {
    count(Invariant.ONE_INSTANCE_PER_CLAIM, 1);
    Map<String, List<String>> byClaim = liveFarriers(now).stream()
        .collect(Collectors.groupingBy(i -> i.tags().get(WellKnown.TAG_NODECLAIM), TreeMap::new,
            Collectors.mapping(CloudInstance::id, Collectors.toList())));
    byClaim.forEach((claim, ids) -> {
      if (ids.size() > 1) {
        found.add(new Violation(now.at(), Invariant.ONE_INSTANCE_PER_CLAIM, claim, ids.size() + " live instances " + ids));
      }
    });
  }

  private void noOrphanPastGrace(Observation now, List<Violation> found) {
    count(Invariant.NO_ORPHAN_PAST_GRACE, 1);
    Set<String> claims = now.claims().stream().map(Claim::name).collect(Collectors.toSet());
    Set<String> orphans = new HashSet<>();
    for (CloudInstance instance : liveFarriers(now)) {
      if (!claims.contains(instance.tags().get(WellKnown.TAG_NODECLAIM))) {
        orphans.add(instance.id());
        Instant since = orphanSince.computeIfAbsent(instance.id(), id -> now.at());
        Duration orphaned = Duration.between(since, now.at());
        if (orphaned.compareTo(orphanGrace) > 0) {
          found.add(new Violation(now.at(), Invariant.NO_ORPHAN_PAST_GRACE, instance.id(), "no NodeClaim "
              + instance.tags().get(WellKnown.TAG_NODECLAIM) + " for " + orphaned.toSeconds() + " s (grace " + orphanGrace.toSeconds() + " s)"));
        }
      }
    }
    orphanSince.keySet().retainAll(orphans);
  }

  private void foreignUntouched(Observation now, List<Violation> found) {
    count(Invariant.FOREIGN_UNTOUCHED, 1);
    Map<String, CloudInstance> byId = now.instances().stream().collect(Collectors.toMap(CloudInstance::id, i -> i, (a, b) -> a));
    for (String id : new TreeSet<>(foreign)) {
      CloudInstance instance = byId.get(id);
      if (instance == null) {
        found.add(new Violation(now.at(), Invariant.FOREIGN_UNTOUCHED, id, "gone from the account"));
      } else if (!instance.live()) {
        found.add(new Violation(now.at(), Invariant.FOREIGN_UNTOUCHED, id, "state " + instance.state()));
      }
    }
  }

  /** The running replacements with a budgeted reason, one per NodeClaim, counted per NodePool against its budget. */
  private void budget(Observation now, List<Violation> found) {
    count(Invariant.BUDGET, 1);
    Map<String, Set<String>> disrupting = new TreeMap<>();
    for (Replacement r : now.replacements()) {
      if (r.nodePool() != null && budgetedReasons.contains(r.reason())) {
        disrupting.computeIfAbsent(r.nodePool(), p -> new TreeSet<>()).add(Objects.requireNonNullElse(r.nodeClaim(), r.workflowId()));
      }
    }
    overBudget.keySet().retainAll(disrupting.keySet());
    disrupting.forEach((pool, claims) -> {
      Integer budget = budgets.get(pool);
      if (budget != null && claims.size() > budget) {
        if (overBudget.merge(pool, 1, Integer::sum) >= OVER_BUDGET_OBSERVATIONS) {
          found.add(new Violation(now.at(), Invariant.BUDGET, pool, claims.size() + " nodes disrupted voluntarily at once "
              + claims + ", budget " + budget));
        }
      } else {
        overBudget.remove(pool);
      }
    });
  }

  private void oneReplacementPerNode(Observation now, List<Violation> found) {
    count(Invariant.ONE_REPLACEMENT_PER_NODE, 1);
    Map<String, List<String>> running = now.replacements().stream().filter(r -> r.nodeClaim() != null)
        .collect(Collectors.groupingBy(Replacement::nodeClaim, TreeMap::new,
            Collectors.mapping(r -> r.workflowId() + "@" + r.runId(), Collectors.toList())));
    running.forEach((claim, runs) -> {
      // Two runs of one workflow id are one replacement continued as new, listed twice for a moment by visibility.
      if (runs.stream().map(run -> run.substring(0, run.lastIndexOf('@'))).distinct().count() > 1) {
        found.add(new Violation(now.at(), Invariant.ONE_REPLACEMENT_PER_NODE, claim, runs.size() + " running replacements " + runs));
      }
    });
    for (Replacement done : now.completedReplacements()) {
      if (done.nodeClaim() == null) {
        continue;
      }
      Set<String> runs = completedRuns.computeIfAbsent(done.nodeClaim(), c -> new TreeSet<>());
      if (runs.add(done.workflowId() + "@" + done.runId()) && runs.size() > 1) {
        found.add(new Violation(now.at(), Invariant.ONE_REPLACEMENT_PER_NODE, done.nodeClaim(), runs.size()
            + " completed replacements " + runs));
      }
    }
  }

  private void runaway(Observation now, List<Violation> found) {
    count(Invariant.RUNAWAY, 1);
    List<String> launching = now.claims().stream().filter(c -> !c.registered() && !c.deleting()).map(Claim::name).sorted().toList();
    // Claims launched for pods that went away since (a Deployment scaled down) are not a runaway: what the pods and
    // replacements needed at any time within the window counts.
    neededSeen.addLast(Map.entry(now.at(), (long) now.pendingPods().size() + now.replacements().size()));
    while (Duration.between(neededSeen.peekFirst().getKey(), now.at()).compareTo(runawayWindow) > 0) {
      neededSeen.removeFirst();
    }
    long needed = neededSeen.stream().mapToLong(Map.Entry::getValue).max().orElse(0) + runawayMargin;
    if (launching.size() > needed) {
      runawaySince = runawaySince == null ? now.at() : runawaySince;
      Duration over = Duration.between(runawaySince, now.at());
      if (over.compareTo(runawayWindow) > 0) {
        found.add(new Violation(now.at(), Invariant.RUNAWAY, cluster, launching.size() + " NodeClaims launching " + launching
            + " for at most " + (needed - runawayMargin) + " pending pods and replacements within " + runawayWindow.toSeconds()
            + " s (margin " + runawayMargin + ") for " + over.toSeconds() + " s"));
      }
    } else {
      runawaySince = null;
    }
    int live = liveFarriers(now).size();
    if (live > instanceCeiling) {
      found.add(new Violation(now.at(), Invariant.RUNAWAY, cluster, live + " live instances, ceiling " + instanceCeiling));
    }
  }
}

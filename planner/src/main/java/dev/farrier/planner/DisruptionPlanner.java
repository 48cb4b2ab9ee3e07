package dev.farrier.planner;

import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.RolloutBatch;
import dev.farrier.model.RolloutScope;
import dev.farrier.model.WellKnown;
import dev.farrier.model.Freeze;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Decides, as a pure function of a {@link DisruptionSnapshot}, which NodeClaims to disrupt now and why every other
 * one is left alone.
 *
 * <p>Per NodeClaim, first match wins:
 * <ol>
 *   <li>being deleted: command {@code delete}/{@code deleted}, never budget-limited (the user asked for it), unless
 *       a disruption is already under way for it;</li>
 *   <li>skipped: NodePool unknown, not initialized yet, a replacement runs for it (or just completed), replacement
 *       aborted by an operator ({@code farrier.dev/replacement-aborted}). A disrupted taint without a replacement
 *       (left by one that is gone) is planned again;</li>
 *   <li>surplus of a static NodePool above its {@code replicas} ({@link StaticPools#surplus}): command
 *       {@code delete}/{@code scaled_down}, forceful as upstream's scale-down (no budget, do-not-disrupt or freeze
 *       holds it; its drain honours PDBs until the terminationGracePeriod). A static NodePool's nodes are never
 *       consolidated, are replaced one for one whatever their pods, and a drift waits while the NodePool is above its
 *       replicas or one more NodeClaim would pass {@code limits.nodes}. The plan also names the static NodePools
 *       below their replicas ({@link DisruptionPlan#staticShort()}) for the reconciler's scale-up;</li>
 *   <li>unhealthy past its toleration, node repair on ({@link Repair}): command with reason {@code unhealthy}, forceful
 *       as an expiry and with a terminationGracePeriod of 0 (Karpenter's repair deletes the pods at once);</li>
 *   <li>expired ({@code expireAfter} since creation): command with reason {@code expired}. Forceful as in Karpenter
 *       v1 (the default): no budget, do-not-disrupt and change freezes do not stop it, and the command is
 *       {@link DisruptionCommand#forceful()}: the replacement drains it at once (honouring PDBs and do-not-disrupt
 *       pods until the terminationGracePeriod) while its replacement launches in parallel. A NodePool annotated
 *       {@code farrier.dev/expiry: replace-first} ({@link ExpiryMode}) makes it a voluntary disruption instead:
 *       held by do-not-disrupt and change freezes, under the budgets that name no reason (Karpenter's default 10%
 *       when none), replaced before the drain. The decision says which mode applied;</li>
 *   <li>not drifted ({@link DriftCheck}), no rebalance recommended and not empty past {@code consolidateAfter}
 *       ({@link Emptiness}): skipped, with why it is not a consolidation candidate;</li>
 *   <li>drifted in a NodePool owned by a fleet upgrade ({@code farrier.dev/rollout}): skipped, the rollout replaces
 *       it in one of its batches ({@link #planRollout});</li>
 *   <li>do-not-disrupt on the node or one of its pods: skipped;</li>
 *   <li>a change freeze on the cluster or the NodePool ({@code farrier freeze}): skipped;</li>
 *   <li>drifted: a command if the NodePool's budget for {@code Drifted} ({@link BudgetCheck}) has room;</li>
 *   <li>rebalance recommended by EC2 (the NodePool opted in): a voluntary disruption like drift, held by
 *       do-not-disrupt, under the budgets that name no reason (Karpenter's default 10% when there are none).
 *       Voluntary candidates take budget oldest-drifted first (Drifted condition time, else creation time), then by
 *       name;</li>
 *   <li>empty ({@link Emptiness}): method {@code delete} under the budgets for {@code Empty}. The replacement
 *       workflow waits a moment and asks {@link #plan} again before it touches the node, as Karpenter validates a
 *       consolidation before acting.</li>
 * </ol>
 * Method {@code replace} when the node has reschedulable pods, {@code delete} when it has none. Every node already
 * being disrupted, whatever step it is in ({@link NodeClaimView#beingDisrupted}: deleting, tainted, or held by a
 * replacement that has not tainted it yet), and every command issued in this round count against budgets, once each.
 *
 * <p>Longer than 400 lines on purpose: the order above is one decision per candidate, and every rule's check already
 * lives in a class of its own ({@link DriftCheck}, {@link Emptiness}, {@link BudgetCheck}, {@link Repair},
 * {@link Underutilization}); what stays here is the order and the round's shared budget bookkeeping.
 */
public final class DisruptionPlanner {
  static final String REASON_DELETED = "deleted";
  static final String REASON_EXPIRED = "expired";
  static final String REASON_DRIFTED = DisruptionCommand.REASON_DRIFTED;
  static final String REASON_REBALANCE = "rebalance";
  static final String REASON_EMPTY = DisruptionCommand.REASON_EMPTY;
  static final String REASON_UNDERUTILIZED = DisruptionCommand.REASON_UNDERUTILIZED;
  /** A static NodePool's node removed because its {@code replicas} went down ({@link StaticPools#surplus}). */
  static final String REASON_SCALED_DOWN = "scaled_down";
  static final String SCALED_DOWN_DETAIL = "; forceful as upstream's scale-down: not budget-limited, drained at once"
      + " (PDBs and do-not-disrupt pods hold until its terminationGracePeriod), no replacement";
  static final String REBALANCE_DETAIL = "EC2 recommends rebalancing the instance away (the NodePool opted in)";
  static final String FORCEFUL_DETAIL = "; forceful: not budget-limited and not held by do-not-disrupt, drained at once"
      + " while a replacement, if its pods need one, launches in parallel";
  static final String REPAIR_DETAIL = "; forceful: not budget-limited and not held by do-not-disrupt or freezes, its pods"
      + " deleted at once past PDBs (as Karpenter's node repair) while a replacement, if its pods need one, launches in parallel";
  static final String REPLACE_FIRST_DETAIL = "; replace-first (" + WellKnown.EXPIRY_ANNOTATION + "): within budgets, held"
      + " by do-not-disrupt, drained once its replacement is initialized";

  public DisruptionPlan plan(DisruptionSnapshot snapshot) {
    return decide(snapshot, null, null).plan();
  }

  /** A reconciler round's plan with the consolidation moves it weighed (what Karpenter's consolidation metrics count). */
  public record Round(DisruptionPlan plan, List<ConsolidationMove> moves) {}

  /** As {@link #plan}, with the consolidation moves weighed. */
  public Round round(DisruptionSnapshot snapshot) {
    Decisions decided = decide(snapshot, null, null);
    return new Round(decided.plan(), decided.moves());
  }

  /**
   * The plan as {@link #plan} makes it, with consolidation of underutilized nodes weighing {@code nodeClaim} alone: how
   * a consolidation planned moments ago is checked again (another candidate that became cheaper to disrupt since must
   * not invalidate it; the other members of a multi-node consolidation run their own replacements by then, so they count
   * as going away and their pods are not moved onto them).
   */
  public DisruptionPlan recheck(DisruptionSnapshot snapshot, String nodeClaim) {
    return recheck(snapshot, Set.of(nodeClaim));
  }

  /** As {@link #recheck(DisruptionSnapshot, String)}, weighing these claims alone: a multi-node consolidation's. */
  public DisruptionPlan recheck(DisruptionSnapshot snapshot, Set<String> nodeClaims) {
    return decide(snapshot, null, nodeClaims).plan();
  }

  /**
   * Why a disruption planned moments ago no longer stands in {@code plan} (planned again by {@link #recheck}), or null
   * when the plan has the same command for {@code nodeClaim}: the same reason, the same method when one is given, and
   * the same group for a multi-node replace (a smaller one would launch a replacement sized for pods that are not
   * coming). A replacement whose pods now fit on the other nodes is not launched: the next round deletes the node, as
   * upstream validates a consolidation by computing it again and dropping it when the command differs.
   */
  public static String noLongerStands(DisruptionPlan plan, String nodeClaim, String reason, DisruptionMethod method,
      List<String> group) {
    DisruptionCommand same = plan.commands().stream()
        .filter(c -> c.nodeClaim().equals(nodeClaim) && c.reason().equals(reason)).findFirst().orElse(null);
    if (same == null) {
      return "no longer planned for " + reason;
    }
    if (!Set.copyOf(same.consolidatedWith()).equals(Set.copyOf(group))) {
      return "planned with another group (" + same.consolidatedWith() + ", not " + group + ")";
    }
    if (method != null && same.method() != method) {
      return "planned again as a " + same.method().word() + ", not a " + method.word() + " (" + same.detail() + ")";
    }
    return null;
  }

  /**
   * A fleet upgrade's next batch: only drifted claims of the NodePools {@code scope} owns (deletion, expiry and
   * rebalance stay the reconciler's), oldest drifted first, under the same budgets and {@code do-not-disrupt}, at most
   * {@code scope.max()}; with how many drifted claims of the scope remain and why the others wait (the first of them
   * and their count; the scope's own replacements in flight are not counted as waiting).
   */
  public RolloutBatch planRollout(DisruptionSnapshot snapshot, RolloutScope scope) {
    return planRollout(snapshot, scope, false);
  }

  /**
   * As {@link #planRollout(DisruptionSnapshot, RolloutScope)}, with {@code everyHeld} every waiting node in
   * {@link RolloutBatch#held} (a preview lists them all; a rollout's history keeps only the first).
   */
  public RolloutBatch planRollout(DisruptionSnapshot snapshot, RolloutScope scope, boolean everyHeld) {
    if (!scope.inFlight().isEmpty()) {
      Set<String> inFlight = Set.copyOf(scope.inFlight());
      snapshot = new DisruptionSnapshot(snapshot.nowMillis(), snapshot.nodePools(), snapshot.nodeClaims().stream()
          .map(c -> inFlight.contains(c.name()) ? c.withReplacementActive(true) : c).toList(),
          snapshot.resolvedImages(), snapshot.frozen(), snapshot.consolidation());
    }
    Decisions decided = decide(snapshot, scope, null);
    Set<String> ownInFlight = Set.copyOf(scope.inFlight());
    List<CandidateDecision> waiting = decided.plan().decisions().stream()
        .filter(d -> !d.disrupt() && decided.remainingClaims().contains(d.nodeClaim()) && !ownInFlight.contains(d.nodeClaim()))
        .toList();
    return new RolloutBatch(decided.plan().commands(), decided.remainingClaims().size(),
        everyHeld || waiting.isEmpty() ? waiting : List.of(waiting.getFirst()), waiting.size());
  }

  /** The plan, and (for a rollout) the claims of its scope still to be replaced. */
  private record Decisions(DisruptionPlan plan, Set<String> remainingClaims, List<ConsolidationMove> moves) {}

  private Decisions decide(DisruptionSnapshot snapshot, RolloutScope scope, Set<String> focus) {
    Set<String> remaining = new TreeSet<>();
    Map<String, NodePoolView> pools = snapshot.nodePools().stream()
        .collect(Collectors.toMap(NodePoolView::name, Function.identity(), (a, b) -> a));
    Map<String, List<String>> images = ResolvedImages.index(snapshot.resolvedImages());
    Map<String, Integer> nodes = new HashMap<>();
    Map<String, Integer> disrupting = new HashMap<>();
    Map<String, Integer> notDeleting = new HashMap<>();
    Map<String, Integer> claimsOfPool = new HashMap<>();
    for (NodeClaimView c : snapshot.nodeClaims()) {
      // Percentages are of initialized nodes, as Karpenter's are; what is disrupted counts whatever its step (the safe side).
      if (c.initialized()) {
        nodes.merge(c.nodePool(), 1, Integer::sum);
      }
      if (c.beingDisrupted()) {
        disrupting.merge(c.nodePool(), 1, Integer::sum);
      }
      claimsOfPool.merge(c.nodePool(), 1, Integer::sum);
      if (!c.deleting()) {
        notDeleting.merge(c.nodePool(), 1, Integer::sum);
      }
    }
    // A static NodePool above its replicas: which nodes go (a rollout leaves scaling to the reconciler).
    Set<String> scaledDown = new java.util.HashSet<>();
    List<String> staticShort = new ArrayList<>();
    Map<String, String> staticHeld = new java.util.TreeMap<>();
    if (scope == null) {
      for (NodePoolView pool : snapshot.nodePools()) {
        if (pool.isStatic()) {
          StaticPools.surplus(pool, snapshot.nodeClaims()).forEach(c -> scaledDown.add(c.name()));
          StaticPools.Shortfall shortfall = StaticPools.shortfall(pool, snapshot.nodeClaims());
          if (shortfall.launchable() > 0) {
            staticShort.add(pool.name());
          }
          if (shortfall.heldBy() != null) {
            staticHeld.put(pool.name(), shortfall.heldBy());
          }
        }
      }
    }

    Repair repair = Repair.of(snapshot);
    Map<String, CandidateDecision> decisions = new HashMap<>();
    List<Decided> commands = new ArrayList<>();
    List<Decided> voluntary = new ArrayList<>();
    List<Underutilization.Candidate> underutilized = new ArrayList<>();
    for (NodeClaimView claim : snapshot.nodeClaims()) {
      NodePoolView pool = pools.get(claim.nodePool());
      if (scope != null && !inScope(scope, claim)) {
        continue;
      }
      if (scope != null && (claim.deleting() || claim.replacementActive())) {
        // Deletion is the reconciler's; a node being replaced is work the rollout still waits for.
        if (claim.replacementActive() && pool != null && DriftCheck.of(claim, pool, images).drifted()) {
          remaining.add(claim.name());
          decisions.put(claim.name(), skip(claim, "being replaced"));
        }
        continue;
      }
      if (claim.deleting()) {
        if (claim.replacementActive()) {
          decisions.put(claim.name(), skip(claim, "being deleted; a disruption is already under way"));
        } else {
          commands.add(new Decided(claim, pool, DisruptionMethod.DELETE, REASON_DELETED, "NodeClaim is being deleted"));
        }
        continue;
      }
      String skipReason = pool == null ? "nodepool " + claim.nodePool() + " not found"
          : !claim.initialized() ? "not initialized yet"
          : claim.replacementActive() ? "already being disrupted (a replacement runs or just completed)"
          : claim.aborted() ? "replacement aborted by an operator (farrier.dev/replacement-aborted); remove the"
              + " annotation to allow disruption again"
          : null;
      if (skipReason != null) {
        if (scope != null && pool != null && DriftCheck.of(claim, pool, images).drifted()) {
          // Still to be replaced, held (an operator's abort mark, not initialized yet): the rollout waits, never
          // reports its NodePools done with this node on the old image.
          remaining.add(claim.name());
        }
        decisions.put(claim.name(), skip(claim, skipReason));
        continue;
      }
      if (scaledDown.contains(claim.name())) {
        commands.add(new Decided(claim, pool, DisruptionMethod.DELETE, REASON_SCALED_DOWN, "static NodePool " + pool.name()
            + " has more nodes than its " + pool.replicas() + " replicas" + SCALED_DOWN_DETAIL));
        if (!claim.beingDisrupted()) {
          disrupting.merge(pool.name(), 1, Integer::sum);
        }
        continue;
      }
      // Node repair (Repair): forceful like expiry, its own reason; a rollout leaves it to the reconciler.
      String unhealthy = scope != null ? null : repair.repairs(claim);
      if (unhealthy != null) {
        commands.add(new Decided(claim, pool, method(claim, pool), Repair.REASON, unhealthy + REPAIR_DETAIL));
        if (!claim.beingDisrupted()) {
          disrupting.merge(pool.name(), 1, Integer::sum);
        }
        continue;
      }
      String expiry = scope != null ? null : Expiry.of(claim, pool, snapshot.nowMillis());
      if (expiry != null && pool.expiry() == ExpiryMode.FORCEFUL) {
        commands.add(new Decided(claim, pool, method(claim, pool), REASON_EXPIRED, expiry + FORCEFUL_DETAIL));
        if (!claim.beingDisrupted()) {
          disrupting.merge(pool.name(), 1, Integer::sum);
        }
        continue;
      }
      if (expiry != null) {
        Decided candidate = new Decided(claim, pool, method(claim, pool), REASON_EXPIRED, expiry + REPLACE_FIRST_DETAIL);
        String held = heldAsVoluntary(candidate, snapshot.frozen());
        if (held != null) {
          decisions.put(claim.name(), skip(claim, held));
        } else {
          voluntary.add(candidate);
        }
        continue;
      }
      DriftCheck drift = DriftCheck.of(claim, pool, images);
      Emptiness empty = null;
      if (!drift.drifted() && (scope != null || !claim.rebalanceRecommended())) {
        empty = scope == null ? Emptiness.of(claim, pool, snapshot.nowMillis()) : null;
        if (empty == null || !empty.candidate()) {
          String why = drift.detail() + (empty == null ? "" : "; " + empty.detail());
          String notUnderutilized = scope == null ? notUnderutilized(claim, pool, snapshot) : "";
          if (notUnderutilized == null) {
            Decided candidate = new Decided(claim, pool, DisruptionMethod.DELETE, REASON_UNDERUTILIZED, "");
            String held = heldAsVoluntary(candidate, snapshot.frozen());
            String pdb = snapshot.consolidation().pdbBlocked().get(claim.nodeName());
            String promised = snapshot.consolidation().promisedElsewhere().get(claim.nodeName());
            String unowned = noController(claim);
            if (held == null && pdb == null && promised == null && unowned == null) {
              underutilized.add(new Underutilization.Candidate(claim, pool));
            }
            decisions.put(claim.name(), skip(claim, why + "; " + (held != null ? held : pdb != null ? "underutilized but " + pdb
                : promised != null ? "underutilized but " + promised : unowned != null ? "underutilized but " + unowned
                : "underutilized: a candidate for consolidation")));
          } else {
            decisions.put(claim.name(), skip(claim, why + (notUnderutilized.isEmpty() ? "" : "; " + notUnderutilized)));
          }
          continue;
        }
      }
      String owner = ownerProblem(scope, pool);
      if (drift.drifted() && owner != null) {
        decisions.put(claim.name(), skip(claim, "drifted (" + drift.detail() + ") but " + owner));
        continue;
      }
      if (scope != null) {
        remaining.add(claim.name());
      }
      Decided candidate = drift.drifted() ? new Decided(claim, pool, method(claim, pool), REASON_DRIFTED, drift.detail())
          : empty != null ? new Decided(claim, pool, DisruptionMethod.DELETE, REASON_EMPTY, empty.detail())
          : new Decided(claim, pool, method(claim, pool), REASON_REBALANCE, REBALANCE_DETAIL);
      String blocker = claim.doNotDisrupt() ? "karpenter.sh/do-not-disrupt on the node"
          : !claim.pods().doNotDisruptPods().isEmpty()
              ? "karpenter.sh/do-not-disrupt on pod " + claim.pods().doNotDisruptPods().getFirst()
              : null;
      if (blocker != null) {
        decisions.put(claim.name(), skip(claim, candidate.what() + " but blocked by " + blocker));
        continue;
      }
      String freeze = Freeze.of(snapshot.frozen(), pool.name());
      if (freeze != null) {
        decisions.put(claim.name(), skip(claim, candidate.what() + " but held: " + freeze));
        continue;
      }
      voluntary.add(candidate);
    }

    voluntary.sort(Decided.ORDER);
    int allowed = scope == null ? Integer.MAX_VALUE : scope.max();
    for (Decided candidate : voluntary) {
      String poolName = candidate.pool.name();
      if (commands.size() >= allowed) {
        decisions.put(candidate.claim.name(), skip(candidate.claim, candidate.what() + ": waits for the rollout's next batch"));
        continue;
      }
      String staticWait = candidate.pool.isStatic() ? staticWait(candidate.pool, notDeleting, claimsOfPool) : null;
      if (staticWait != null) {
        decisions.put(candidate.claim.name(), skip(candidate.claim, candidate.what() + " but " + staticWait));
        continue;
      }
      // A node whose stale taint already counts as disrupting takes no second unit when it is planned again.
      int held = candidate.claim.beingDisrupted() ? 1 : 0;
      BudgetCheck budget = candidate.budget(nodes.getOrDefault(poolName, 0), disrupting.getOrDefault(poolName, 0) - held,
          snapshot.nowMillis());
      if (budget.allowed() > 0) {
        commands.add(candidate);
        if (held == 0) {
          disrupting.merge(poolName, 1, Integer::sum);
        }
      } else {
        decisions.put(candidate.claim.name(), skip(candidate.claim, candidate.what() + " but budget exhausted: " + budget.explanation()));
      }
    }

    if (focus != null) {
      underutilized.removeIf(c -> !focus.contains(c.claim().name()));
    }
    List<ConsolidationMove> moves = underutilized.isEmpty() ? List.of()
        : consolidate(snapshot, underutilized, commands, decisions, nodes, disrupting);

    commands.sort(Decided.ORDER);
    for (Decided c : commands) {
      decisions.put(c.claim.name(), new CandidateDecision(c.claim.name(), c.claim.nodeName(), c.claim.nodePool(), true,
          c.reason + ": " + c.detail));
    }
    List<CandidateDecision> ordered = decisions.values().stream()
        .sorted(Comparator.comparing(CandidateDecision::nodeClaim))
        .toList();
    return new Decisions(new DisruptionPlan(snapshot.nowMillis(), commands.stream().map(Decided::toCommand).toList(), ordered,
        0, staticShort, staticHeld), remaining, moves);
  }

  /**
   * Why a static NodePool's voluntary replacement waits, or null: as upstream's static drift, not while the pool is above
   * its replicas (the scale-down goes first), and not when one more NodeClaim would take it past {@code limits.nodes}.
   */
  private static String staticWait(NodePoolView pool, Map<String, Integer> notDeleting, Map<String, Integer> claimsOfPool) {
    int present = notDeleting.getOrDefault(pool.name(), 0);
    if (present > pool.replicas()) {
      return "static NodePool " + pool.name() + " has " + present + " NodeClaims for its " + pool.replicas()
          + " replicas: waits for the scale-down";
    }
    Long limit = pool.nodeLimit();
    int all = claimsOfPool.getOrDefault(pool.name(), 0);
    return limit != null && all + 1 > limit ? "static NodePool " + pool.name() + " has " + all + " NodeClaims: a replacement"
        + " would take it past limits.nodes " + limit : null;
  }

  /**
   * Why a claim that is neither drifted nor empty is no candidate for consolidation as underutilized, "" when its
   * NodePool does not consolidate underutilized nodes or it has no pods to move (emptiness said why), or null when it
   * is a candidate ({@link Underutilization}).
   */
  private static String notUnderutilized(NodeClaimView claim, NodePoolView pool, DisruptionSnapshot snapshot) {
    if (pool.isStatic() || !pool.consolidatesUnderutilized() || claim.pods().reschedulable() == 0) {
      return "";
    }
    ConsolidationTiming timing = ConsolidationTiming.of(claim, pool, snapshot.nowMillis());
    if (ConsolidationTiming.DISABLED.equals(timing.reason())) {
      return "";
    }
    if (!timing.consolidatable()) {
      return timing.detail();
    }
    if (claim.nominated() != null) {
      return "nominated: " + claim.nominated();
    }
    return snapshot.consolidation() == null ? "the cluster as the scheduler sees it was not read this round" : null;
  }

  /**
   * Consolidates underutilized candidates after every other voluntary disruption took its budget: each NodePool's room
   * is what its budgets for {@code Underutilized} allow now; the nodes already going away are no home for moved pods.
   * Returns the moves weighed ({@link BalancedScoring}).
   */
  private static List<ConsolidationMove> consolidate(DisruptionSnapshot snapshot, List<Underutilization.Candidate> candidates, List<Decided> commands,
      Map<String, CandidateDecision> decisions, Map<String, Integer> nodes, Map<String, Integer> disrupting) {
    Map<String, Integer> room = new HashMap<>();
    List<Underutilization.Candidate> withRoom = new ArrayList<>();
    for (Underutilization.Candidate c : candidates) {
      String pool = c.pool().name();
      BudgetCheck budget = BudgetCheck.of(c.pool().budgets(), "Underutilized", nodes.getOrDefault(pool, 0),
          disrupting.getOrDefault(pool, 0), snapshot.nowMillis());
      room.put(pool, budget.allowed());
      if (budget.allowed() > 0) {
        withRoom.add(c);
      } else {
        decisions.put(c.claim().name(), skip(c.claim(), decisions.get(c.claim().name()).reason()
            .replace("underutilized: a candidate for consolidation", "underutilized but budget exhausted: " + budget.explanation())));
      }
    }
    Set<String> leaving = new java.util.HashSet<>();
    // Going away once committed (tainted or deleting). A consolidation still in its recheck is not yet: its pods, planned
    // first as a node going away's, would invalidate the next round's command while that command, going away in turn,
    // invalidated it at its own recheck, round after round. As upstream validates one command before computing the next,
    // the first to be rechecked wins: the later one's recheck then sees it tainted.
    snapshot.nodeClaims().stream().filter(c -> c.deleting() || c.disruptedTaint()).map(NodeClaimView::nodeName).forEach(leaving::add);
    commands.forEach(d -> leaving.add(d.claim.nodeName()));
    leaving.remove(null);
    BalancedScoring scoring = new BalancedScoring(snapshot.consolidation(), snapshot.nodeClaims(), snapshot.nodePools());
    Underutilization.Outcome outcome = new Underutilization(snapshot.consolidation(), snapshot.nodePools(), leaving, scoring)
        .choose(withRoom, room);
    for (Underutilization.Command c : outcome.commands()) {
      commands.add(new Decided(c.claim(), c.pool(), c.method(), REASON_UNDERUTILIZED, c.detail(), c.maxPricePerHour(),
          c.group().stream().map(NodeClaimView::name).toList()));
      disrupting.merge(c.pool().name(), 1, Integer::sum);
    }
    outcome.whyNot().forEach((claim, why) -> {
      CandidateDecision d = decisions.get(claim);
      decisions.put(claim, new CandidateDecision(claim, d.nodeName(), d.nodePool(), false,
          d.reason().replace("underutilized: a candidate for consolidation", "underutilized but " + why)));
    });
    return outcome.moves();
  }

  private static boolean inScope(RolloutScope scope, NodeClaimView claim) {
    return scope.nodePools().contains(claim.nodePool())
        && (scope.onlyClaims().isEmpty() || scope.onlyClaims().contains(claim.name()));
  }

  /**
   * Why drift of this pool is not the caller's to act on, or null when it is: a NodePool owned by a rollout is
   * replaced only in that rollout's batches; a rollout acts only on the NodePools it owns.
   */
  private static String ownerProblem(RolloutScope scope, NodePoolView pool) {
    if (scope == null) {
      return pool.rollout() == null ? null
          : "held for rollout " + pool.rollout() + " (farrier.dev/rollout): replaced in one of its batches";
    }
    return scope.workflowId().equals(pool.rollout()) ? null
        : "nodepool " + pool.name() + " is not owned by " + scope.workflowId()
            + (pool.rollout() == null ? "" : " (it is owned by " + pool.rollout() + ")");
  }

  /**
   * Why a voluntary candidate is held before its budget is counted (do-not-disrupt on the node or one of its pods, a
   * change freeze), or null when nothing holds it.
   */
  private static String heldAsVoluntary(Decided candidate, Map<String, String> frozen) {
    NodeClaimView claim = candidate.claim;
    String blocker = claim.doNotDisrupt() ? "karpenter.sh/do-not-disrupt on the node"
        : !claim.pods().doNotDisruptPods().isEmpty()
            ? "karpenter.sh/do-not-disrupt on pod " + claim.pods().doNotDisruptPods().getFirst()
            : null;
    if (blocker != null) {
      return candidate.what() + " but blocked by " + blocker;
    }
    String freeze = Freeze.of(frozen, candidate.pool.name());
    return freeze == null ? null : candidate.what() + " but held: " + freeze;
  }

  /**
   * Why the node's drain would hold one of its pods for good, or null: a pod no controller owns is held by a voluntary
   * drain (an eviction would delete it for good), so a consolidation could cordon the node, and launch a replacement,
   * and never finish. Drift and expiry still go ahead (the drain shows the held pod; an operator acts on it).
   */
  private static String noController(NodeClaimView claim) {
    List<String> pods = claim.pods().noControllerPods();
    if (pods.isEmpty()) {
      return null;
    }
    return pods.size() == 1
        ? "pod " + pods.getFirst() + " has no controller: a drain would hold it (an eviction would delete it for good)"
        : "pod " + pods.getFirst() + " and " + (pods.size() - 1) + " other pod(s) have no controller: a drain would hold them"
            + " (an eviction would delete them for good)";
  }

  /** A static NodePool's node is always replaced (one for one: its pool keeps its count), any other only for its pods. */
  private static DisruptionMethod method(NodeClaimView claim, NodePoolView pool) {
    return claim.pods().reschedulable() > 0 || pool.isStatic() ? DisruptionMethod.REPLACE : DisruptionMethod.DELETE;
  }

  private static CandidateDecision skip(NodeClaimView claim, String reason) {
    return new CandidateDecision(claim.name(), claim.nodeName(), claim.nodePool(), false, reason);
  }

  /** A claim the planner decided to disrupt (pending the budget for a voluntary reason). */
  private record Decided(NodeClaimView claim, NodePoolView pool, DisruptionMethod method, String reason, String detail,
      Double maxPricePerHour, List<String> consolidatedWith) {
    Decided(NodeClaimView claim, NodePoolView pool, DisruptionMethod method, String reason, String detail) {
      this(claim, pool, method, reason, detail, null, List.of());
    }

    /** How the decision reads: {@code drifted (<detail>)}, {@code rebalance recommended}. */
    String what() {
      return REASON_REBALANCE.equals(reason) ? "rebalance recommended"
          : REASON_EMPTY.equals(reason) ? "empty (" + detail + ")"
          : REASON_UNDERUTILIZED.equals(reason) && detail.isEmpty() ? "underutilized" : reason + " (" + detail + ")";
    }

    /**
     * Drift takes the budgets for {@code Drifted}. A rebalance and a replace-first expiry are no Karpenter budget
     * reason (v1 has none for expiry: it is forceful there): they take the budgets that name no reason, and
     * Karpenter's default 10% when the NodePool has only reason-scoped ones (never unlimited).
     */
    BudgetCheck budget(int nodes, int disrupting, long nowMillis) {
      if (REASON_DRIFTED.equals(reason)) {
        return BudgetCheck.of(pool.budgets(), "Drifted", nodes, disrupting, nowMillis);
      }
      if (REASON_EMPTY.equals(reason)) {
        return BudgetCheck.of(pool.budgets(), "Empty", nodes, disrupting, nowMillis);
      }
      List<DisruptionBudget> general = pool.budgets().stream().filter(b -> b.reasons().isEmpty()).toList();
      return BudgetCheck.of(general, REASON_EXPIRED.equals(reason) ? "Expired" : "Rebalance", nodes, disrupting, nowMillis);
    }

    /** An expiry the NodePool did not ask to be replace-first (Karpenter v1's forceful expiration), or a repair. */
    boolean forceful() {
      return REASON_EXPIRED.equals(reason) && pool.expiry() == ExpiryMode.FORCEFUL || Repair.REASON.equals(reason)
          || REASON_SCALED_DOWN.equals(reason);
    }

    static final Comparator<Decided> ORDER = Comparator
        .comparingLong((Decided d) -> d.claim.driftedSinceMillis() != null ? d.claim.driftedSinceMillis() : d.claim.createdAtMillis())
        .thenComparing(d -> d.claim.name());

    DisruptionCommand toCommand() {
      Long grace = Repair.REASON.equals(reason) ? Long.valueOf(Repair.TERMINATION_GRACE_SECONDS)
          : claim.terminationGracePeriodSeconds() != null ? claim.terminationGracePeriodSeconds()
          : pool == null ? null : pool.terminationGracePeriodSeconds();
      return new DisruptionCommand(claim.name(), claim.nodeName(), claim.nodePool(), claim.instanceId(), method, reason,
          detail, claim.pods().reschedulable(), grace, claim.instanceType(), claim.capacityType(),
          pool != null && pool.approvalRequired(), forceful(), maxPricePerHour, consolidatedWith);
    }
  }
}

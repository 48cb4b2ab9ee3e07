package dev.farrier.planner;

import dev.farrier.model.DisruptionMethod;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.ReplacementPlan;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.PodRef;
import dev.farrier.model.Resources;
import dev.farrier.model.UnschedulablePod;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Consolidation of underutilized nodes ({@code WhenEmptyOrUnderutilized} and {@code Balanced}), as Karpenter v1's multi-node and
 * single-node methods, decided with the provisioning scheduler itself ({@link ProvisioningPlanner}: one scheduler, not
 * two): the candidates' pods are planned as if pending, on every other node that is not going away, with new claims
 * from the NodePools when they do not fit, after the pods still on the nodes going away (see {@link #simulate}).
 *
 * <ol>
 *   <li>Multi-node: the largest prefix (at least two, of the first {@value #MAX_CANDIDATES}) of the candidates, cheapest to
 *       disrupt first, whose pods all fit on the remaining nodes is deleted, found by binary search as upstream does.</li>
 *   <li>Multi-node replace, when no group can simply go: the largest group (at least two on-demand nodes of one NodePool,
 *       in the same order) whose pods one node cheaper than the group's summed price holds; when one of the group's own
 *       types would hold them, the new node must also be cheaper than the group's node of that type, or keeping that
 *       node and deleting the others is the better move (upstream's filter of the same instance types). The first is replaced by
 *       that node (planned as its replacement will plan it, over the pods of the whole group); the others are held, their
 *       pods promised to the replacement ({@link ConsolidationView#promisedElsewhere}). Once it is ready, each round first
 *       deletes one of them whose pods fit on the other nodes ({@link ConsolidationView#homes}), before any other
 *       candidate, so the new node, underutilized until they move, is not consolidated itself first and its pods moved
 *       twice. (Upstream drains the whole group behind one launch; a Farrier replacement drains one node.)</li>
 *   <li>Single-node, in the same order, the first candidate that can go: deleted when its pods fit on the other nodes;
 *       else replaced when one node made only of offerings cheaper than the candidate's holds all of its pods, planned
 *       exactly as the replacement workflow will plan it ({@link ProvisioningPlanner#planReplacement} under
 *       {@link Command#maxPricePerHour}). A spot node is only deleted unless spot-to-spot consolidation is on
 *       ({@link ConsolidationView#spotToSpot}, off by default as Karpenter's gate): then it is replaced by a spot node
 *       when at least {@value CheaperOfferings#SPOT_TO_SPOT_MIN_TYPES} cheaper spot types hold its pods, launched with
 *       the cheapest of them ({@link CheaperOfferings#spotToSpot}).</li>
 * </ol>
 * In a NodePool of policy {@code Balanced} each of these moves goes ahead only when its score passes
 * ({@link BalancedScoring}: a multi-node search takes the largest group that both fits and scores enough, and a candidate
 * that would not score enough even deleted outright is not simulated at all, as upstream); the moves weighed are counted
 * for the metrics. The rest of a multi-node replacement is not scored again: its group was, as a whole.
 * One round issues the commands of one method, as upstream; every candidate not chosen gets why. No round consolidates
 * while pending pods need new nodes ({@link ConsolidationView#pendingPods}): upstream simulates the pending pods with the
 * candidates' and deletes nothing while a new node is needed.
 *
 * <p>Longer than 400 lines on purpose: the three methods share one round's state (the candidates' order, the nodes
 * staying, the memo of instance-type facts) and the group-replace rules above are one decision; split, each part
 * would take that state as parameters and the order of the rules would be spread over files.
 */
final class Underutilization {
  /** At most this many candidates are considered for multi-node consolidation in one round (upstream's limit). */
  static final int MAX_CANDIDATES = 100;

  record Candidate(NodeClaimView claim, NodePoolView pool) {}

  /**
   * A decided consolidation of one node.
   *
   * @param maxPricePerHour for a replacement, the candidate's price (a multi-node replacement's: the group's summed, or
   *                        less when one of the group's own types holds it all, see {@link #replaceTogether}):
   *                        the replacement may only use cheaper offerings
   * @param group           for a multi-node replacement, the other claims whose pods the replacement is sized for
   */
  record Command(NodeClaimView claim, NodePoolView pool, DisruptionMethod method, String detail, Double maxPricePerHour,
      List<NodeClaimView> group) {
    Command(NodeClaimView claim, NodePoolView pool, DisruptionMethod method, String detail, Double maxPricePerHour) {
      this(claim, pool, method, detail, maxPricePerHour, List.of());
    }
  }

  /** The commands, for every candidate not commanded why not, and the moves weighed ({@link BalancedScoring}). */
  record Outcome(List<Command> commands, Map<String, String> whyNot, List<ConsolidationMove> moves) {}

  /** A move found, with its scores. */
  private record Move<T>(T found, BalancedScoring.Verdict verdict) {}

  private final ConsolidationView view;
  private final List<NodePoolView> pools;
  private final Set<String> leaving;
  /** Per node going away, its reschedulable pods still on it: they need homes too ({@link #simulate}). */
  private final Map<String, List<PodSpecView>> displaced = new HashMap<>();
  private final Set<PodRef> displacedPods = new HashSet<>();
  /** The instance types' facts and compatibility, derived once for the round's simulated plans. */
  private final TypeMemo memo = new TypeMemo();
  private final BalancedScoring scoring;
  /** The last multi-node move of this round the score turned down, counted when no multi-node move goes ahead. */
  private BalancedScoring.Verdict rejected;

  /**
   * @param leaving nodes already going away (being disrupted, or commanded this round): never a home for moved pods,
   *                and their pods still on them are placed with every candidate's
   */
  Underutilization(ConsolidationView view, List<NodePoolView> pools, Set<String> leaving, BalancedScoring scoring) {
    this.view = view;
    this.pools = pools;
    this.leaving = leaving;
    this.scoring = scoring;
    for (ExistingNodeView n : view.nodes()) {
      if (leaving.contains(n.name())) {
        List<PodSpecView> pods = n.pods().stream().filter(PodSpecView::reschedulable).toList();
        displaced.put(n.name(), pods);
        pods.forEach(p -> displacedPods.add(p.pod()));
      }
    }
  }

  /**
   * Chooses among {@code candidates} (each already past consolidateAfter, do-not-disrupt, freezes and PDBs, and of a
   * NodePool whose budgets have room); {@code room} is how many more nodes each NodePool's budgets for
   * {@code Underutilized} allow.
   */
  Outcome choose(List<Candidate> candidates, Map<String, Integer> room) {
    Map<String, String> whyNot = new LinkedHashMap<>();
    String waiting = candidates.isEmpty() ? null : waitingForPending();
    if (waiting != null) {
      candidates.forEach(c -> whyNot.put(c.claim().name(), waiting));
      return new Outcome(List.of(), whyNot, scoring.moves());
    }
    Map<String, ExistingNodeView> nodes = view.nodes().stream()
        .collect(Collectors.toMap(ExistingNodeView::name, n -> n, (a, b) -> a));
    List<Candidate> ordered = candidates.stream()
        .sorted(Comparator.comparingDouble((Candidate c) -> view.disruptionCost().getOrDefault(c.claim().nodeName(), 0.0))
            .thenComparing(c -> c.claim().name()))
        .toList();
    List<Candidate> eligible = new ArrayList<>();
    Map<String, Integer> left = new HashMap<>(room);
    for (Candidate c : ordered) {
      if (!nodes.containsKey(c.claim().nodeName())) {
        whyNot.put(c.claim().name(), "its node is not in the scheduler's view of the cluster");
      } else {
        eligible.add(c);
      }
    }

    List<Candidate> withinBudget = new ArrayList<>();
    for (Candidate c : eligible.subList(0, Math.min(eligible.size(), MAX_CANDIDATES))) {
      int r = left.getOrDefault(c.pool().name(), 0);
      if (r > 0) {
        withinBudget.add(c);
        left.put(c.pool().name(), r - 1);
      }
    }
    Command rest = restOfAGroup(eligible, nodes);
    if (rest != null) {
      eligible.stream().filter(c -> !c.claim().name().equals(rest.claim().name()))
          .forEach(c -> whyNot.putIfAbsent(c.claim().name(), "another consolidation was chosen this round (" + rest.claim().name() + ")"));
      return new Outcome(List.of(rest), whyNot, scoring.moves());
    }
    Move<Integer> deletable = largestDeletablePrefix(withinBudget, nodes);
    if (deletable != null) {
      int fits = deletable.found();
      scoring.count(deletable.verdict());
      List<Command> commands = new ArrayList<>();
      List<Candidate> chosen = withinBudget.subList(0, fits);
      for (Candidate c : chosen) {
        commands.add(new Command(c.claim(), c.pool(), DisruptionMethod.DELETE, "multi-node: the pods of " + fits + " nodes ("
            + names(chosen) + ") fit on the other nodes" + deletable.verdict().why(), null));
      }
      eligible.stream().filter(c -> !chosen.contains(c))
          .forEach(c -> whyNot.putIfAbsent(c.claim().name(), "another consolidation was chosen this round (multi-node of " + fits + ")"));
      return new Outcome(commands, whyNot, scoring.moves());
    }
    Move<Command> replaced = multiNodeReplacement(withinBudget, nodes);
    if (replaced == null && rejected != null) {
      scoring.count(rejected);
    }
    if (replaced != null) {
      scoring.count(replaced.verdict());
      Command together = replaced.found();
      Set<String> group = new HashSet<>(together.group().stream().map(NodeClaimView::name).toList());
      for (Candidate c : eligible) {
        if (group.contains(c.claim().name())) {
          whyNot.put(c.claim().name(), "consolidated with " + together.claim().name() + " into one cheaper node (multi-node of "
              + (group.size() + 1) + "): deleted once its pods have room there");
        } else if (!c.claim().name().equals(together.claim().name())) {
          whyNot.putIfAbsent(c.claim().name(), "another consolidation was chosen this round (multi-node of " + (group.size() + 1) + ")");
        }
      }
      return new Outcome(List.of(together), whyNot, scoring.moves());
    }

    Command chosen = null;
    for (Candidate c : eligible) {
      if (chosen != null) {
        whyNot.put(c.claim().name(), "another consolidation was chosen this round (" + chosen.claim().name() + ")");
      } else if (room.getOrDefault(c.pool().name(), 0) <= 0) {
        whyNot.put(c.claim().name(), "budget for Underutilized exhausted");
      } else {
        Verdict verdict = single(c, nodes);
        if (verdict.command() != null) {
          chosen = verdict.command();
        } else {
          whyNot.put(c.claim().name(), verdict.whyNot());
        }
      }
    }
    return new Outcome(chosen == null ? List.of() : List.of(chosen), whyNot, scoring.moves());
  }

  /**
   * The rest of a multi-node replacement whose new node is ready ({@link ConsolidationView#homes}): the first of them
   * (in the candidates' order; each candidate's NodePool has room in its budget) whose pods fit on the other nodes,
   * deleted; null when none does, and the round goes on as for any candidate.
   */
  private Command restOfAGroup(List<Candidate> candidates, Map<String, ExistingNodeView> nodes) {
    for (Candidate c : candidates) {
      String home = view.homes().get(c.claim().nodeName());
      if (home == null) {
        continue;
      }
      ProvisioningPlan plan = simulate(List.of(c), nodes);
      if (plan.claims().isEmpty() && plan.unschedulable().isEmpty()) {
        int pods = moved(c, nodes);
        return new Command(c.claim(), c.pool(), DisruptionMethod.DELETE, "the rest of a multi-node consolidation: its " + pods
            + (pods == 1 ? " pod fits" : " pods fit") + " on the other nodes (node " + home + " was launched for them)", null);
      }
    }
    return null;
  }

  /** One candidate's single-node consolidation, or why it cannot go. */
  private record Verdict(Command command, String whyNot) {
    static Verdict no(String why) {
      return new Verdict(null, why);
    }
  }

  private Verdict single(Candidate c, Map<String, ExistingNodeView> nodes) {
    double current = price(c.claim(), c.pool());
    BalancedScore best = scoring.bestCase(c, current);
    if (best != null && !best.approved()) {
      // Deleting it outright is the most any move of it can save: no need to simulate it.
      return Verdict.no(best.explain() + ", even deleted outright");
    }
    ProvisioningPlan plan = simulate(List.of(c), nodes);
    int pods = moved(c, nodes);
    String displacedNeed = displacedWithoutHome(plan);
    if (displacedNeed != null) {
      return Verdict.no(displacedNeed);
    }
    if (!plan.unschedulable().isEmpty()) {
      var first = plan.unschedulable().getFirst();
      return Verdict.no("its pods would not fit elsewhere: " + first.pod().key() + ": " + first.reason());
    }
    if (plan.claims().isEmpty()) {
      return scored(c, current, current, new Command(c.claim(), c.pool(), DisruptionMethod.DELETE,
          "its " + pods + (pods == 1 ? " pod fits" : " pods fit") + " on the other nodes", null));
    }
    // They need a new node: whether one cheaper node holds them all is the replacement's own planning below (the
    // simulation above sizes its claims by price, and may split pods that one node would hold).
    boolean spot = WellKnown.CAPACITY_SPOT.equals(c.claim().capacityType());
    if (spot && !view.spotToSpot()) {
      return Verdict.no("a spot node is consolidated only by deletion (spot-to-spot consolidation is off, as Karpenter's default:"
          + " farrier.feature-gates.spot-to-spot-consolidation), and its pods need a new node");
    }
    if (Double.isNaN(current)) {
      return Verdict.no("its price is unknown (" + c.claim().instanceType() + " " + c.claim().capacityType() + " in "
          + c.claim().zone() + " is not in the catalogue): replacing it could cost more");
    }
    // The replacement workflow plans one node for all of its pods under its price (PlanReplacement with the ceiling):
    // decide on exactly that plan, so what is decided here is what will be launched.
    ExistingNodeView node = nodes.get(c.claim().nodeName());
    List<InstanceTypeView> cheaper = CheaperOfferings.below(view.instanceTypes().getOrDefault(c.pool().name(), List.of()), current, spot);
    ReplacementPlan replacement = new ProvisioningPlanner().planReplacement(new ReplacementSnapshot(c.claim().name(), "consolidation",
        node.pods(), c.pool(), cheaper, view.daemonSetPods(), node.allocatable(),
        view.kubelets().getOrDefault(c.pool().name(), KubeletSettings.DEFAULTS), c.claim().zone()));
    if (replacement.replacement() == null || replacement.replacement().pods().size() < replacement.reschedulablePods()) {
      return Verdict.no("not cheaper: no " + (spot ? "spot " : "") + "node under its price of " + money(current) + "/h holds its "
          + pods + (pods == 1 ? " pod" : " pods"));
    }
    if (spot) {
      replacement = CheaperOfferings.spotToSpot(replacement, cheaper);
      if (replacement.replacement() == null) {
        return Verdict.no(replacement.description());
      }
    }
    NodeClaimRequest claim = replacement.replacement();
    double cheapest = ClaimPrice.perHour(claim, cheaper);
    return scored(c, current, current - cheapest, new Command(c.claim(), c.pool(), DisruptionMethod.REPLACE, "replace with a cheaper node: "
        + money(current) + "/h to " + money(cheapest) + "/h (" + claim.instanceTypes().getFirst()
        + (claim.instanceTypes().size() > 1 ? " and " + (claim.instanceTypes().size() - 1) + " other types" : "")
        + ") for its " + pods + (pods == 1 ? " pod" : " pods"), current));
  }

  /** A single-node move, counted, going ahead only when its score passes (always outside {@code Balanced}). */
  private Verdict scored(Candidate c, double price, double savings, Command command) {
    BalancedScoring.Verdict verdict = scoring.score(List.of(c), List.of(price), Double.isNaN(savings) ? 0 : savings);
    scoring.count(verdict);
    if (!verdict.approved()) {
      return Verdict.no(verdict.whyNot());
    }
    return new Verdict(new Command(command.claim(), command.pool(), command.method(), command.detail() + verdict.why(),
        command.maxPricePerHour(), command.group()), null);
  }

  /**
   * Multi-node replace, as upstream's multi-node consolidation with one replacement: the largest group (at least two,
   * found by binary search over the on-demand candidates of the first one's NodePool, in order) whose pods one new node
   * holds for less than the group costs, planned exactly as the replacement will plan it. Unlike a deletion, a
   * replacement is not monotone in the prefix (two small nodes may need a node dearer than they are while three fit one
   * cheaper than the three), so all of the candidates are tried too when the search did not end with them. The first of
   * the group is replaced, carrying the others ({@link Command#group}) and their summed price as ceiling; null when no
   * group does. A group one of whose own instance types would hold it all is replaced only by a node cheaper than its
   * node of that type: otherwise the later rounds would find the new node and that one as the same pair again, and
   * replace it again, for ever.
   */
  private Move<Command> multiNodeReplacement(List<Candidate> candidates, Map<String, ExistingNodeView> nodes) {
    List<Candidate> onDemand = candidates.stream().filter(c -> !WellKnown.CAPACITY_SPOT.equals(c.claim().capacityType())).toList();
    if (onDemand.size() < 2) {
      return null;
    }
    NodePoolView pool = onDemand.getFirst().pool();
    List<Candidate> samePool = onDemand.stream().filter(c -> c.pool().name().equals(pool.name())).toList();
    Move<Command> found = largestPrefix(samePool, group -> replaceTogether(group, nodes));
    if (samePool.size() > 2 && (found == null || found.found().group().size() + 1 < samePool.size())) {
      Move<Command> all = replaceTogether(samePool, nodes);
      if (all != null) {
        return all;
      }
    }
    return found;
  }

  /** One cheaper node for all of the group's pods, its score passing, or null. */
  private Move<Command> replaceTogether(List<Candidate> group, Map<String, ExistingNodeView> nodes) {
    double total = 0;
    for (Candidate c : group) {
      total += price(c.claim(), c.pool());
    }
    if (Double.isNaN(total)) {
      return null;
    }
    ProvisioningPlan simulated = simulate(group, nodes);
    if (!simulated.unschedulable().isEmpty() || simulated.claims().isEmpty() || displacedWithoutHome(simulated) != null) {
      return null;
    }
    Candidate lead = group.getFirst();
    List<PodSpecView> pods = new ArrayList<>();
    Resources replaced = Resources.ZERO;
    for (Candidate c : group) {
      ExistingNodeView node = nodes.get(c.claim().nodeName());
      pods.addAll(node.pods());
      replaced = replaced.plus(node.allocatable());
    }
    String zone = ReplacementSnapshot.commonZone(group.stream().map(c -> c.claim().zone()).toList());
    if (zone == null && pods.stream().anyMatch(ProvisioningPlanner::spreadsOverZones)) {
      // One node in one zone for pods spread over the group's zones would break their spread: the rest of the group
      // could not follow the first, and the new node, underutilized, would be replaced again, round after round.
      return null;
    }
    double ceiling = total;
    ReplacementPlan replacement = planTogether(lead, pods, replaced, ceiling, zone);
    double sameType = sameTypeCeiling(replacement, group);
    if (sameType < ceiling) {
      // One of the group's own types would hold them all: keeping that node and deleting the others moves fewer pods,
      // so the one new node must be cheaper than it (as upstream's multi-node consolidation filters its options).
      ceiling = sameType;
      replacement = planTogether(lead, pods, replaced, ceiling, zone);
    }
    if (replacement == null) {
      return null;
    }
    NodeClaimRequest claim = replacement.replacement();
    double cheapest = ClaimPrice.perHour(claim, cheaperThan(lead, ceiling));
    BalancedScoring.Verdict verdict = scoring.score(group, prices(group), total - cheapest);
    if (!verdict.approved()) {
      rejected = verdict;
      return null;
    }
    int moved = replacement.reschedulablePods();
    return new Move<>(new Command(lead.claim(), lead.pool(), DisruptionMethod.REPLACE, "multi-node: replace " + group.size() + " nodes ("
        + names(group) + ") with one cheaper node: " + money(total) + "/h to " + money(cheapest) + "/h (" + claim.instanceTypes().getFirst()
        + (claim.instanceTypes().size() > 1 ? " and " + (claim.instanceTypes().size() - 1) + " other types" : "") + ") for their "
        + moved + (moved == 1 ? " pod" : " pods") + verdict.why(), ceiling,
        group.subList(1, group.size()).stream().map(Candidate::claim).toList()), verdict);
  }

  /** One node under {@code ceiling} for all of {@code pods}, planned as the replacement will plan it; null when none holds them. */
  private ReplacementPlan planTogether(Candidate lead, List<PodSpecView> pods, Resources replaced, double ceiling, String zone) {
    ReplacementPlan replacement = new ProvisioningPlanner().planReplacement(new ReplacementSnapshot(lead.claim().name(), "consolidation",
        pods, lead.pool(), cheaperThan(lead, ceiling), view.daemonSetPods(), replaced,
        view.kubelets().getOrDefault(lead.pool().name(), KubeletSettings.DEFAULTS), zone));
    if (replacement.replacement() == null || replacement.replacement().pods().size() < replacement.reschedulablePods()) {
      return null;
    }
    return replacement;
  }

  /** The offerings of the lead's NodePool under {@code ceiling} $/h. */
  private List<InstanceTypeView> cheaperThan(Candidate lead, double ceiling) {
    return CheaperOfferings.below(view.instanceTypes().getOrDefault(lead.pool().name(), List.of()), ceiling);
  }

  /**
   * The price of the cheapest node of the group whose instance type is among the replacement's options; infinite when
   * none is (or there is no replacement).
   */
  private double sameTypeCeiling(ReplacementPlan replacement, List<Candidate> group) {
    double ceiling = Double.POSITIVE_INFINITY;
    if (replacement == null) {
      return ceiling;
    }
    Set<String> options = Set.copyOf(replacement.replacement().instanceTypes());
    for (Candidate c : group) {
      if (options.contains(c.claim().instanceType())) {
        ceiling = Math.min(ceiling, price(c.claim(), c.pool()));
      }
    }
    return ceiling;
  }

  /**
   * The largest k (2 or more) such that the first k candidates' pods all fit on the remaining nodes and deleting them
   * scores enough; null when none.
   */
  private Move<Integer> largestDeletablePrefix(List<Candidate> candidates, Map<String, ExistingNodeView> nodes) {
    return largestPrefix(candidates, set -> {
      ProvisioningPlan plan = simulate(set, nodes);
      if (!plan.claims().isEmpty() || !plan.unschedulable().isEmpty()) {
        return null;
      }
      List<Double> prices = prices(set);
      BalancedScoring.Verdict verdict = scoring.score(set, prices, prices.stream().mapToDouble(p -> Double.isNaN(p) ? 0 : p).sum());
      if (!verdict.approved()) {
        rejected = verdict;
        return null;
      }
      return new Move<>(set.size(), verdict);
    });
  }

  private List<Double> prices(List<Candidate> set) {
    return set.stream().map(c -> price(c.claim(), c.pool())).toList();
  }

  /**
   * Binary search over the prefixes of two or more candidates, as upstream's multi-node consolidation: what
   * {@code attempt} gives for the largest prefix it gives something for; null when none.
   */
  private static <T> T largestPrefix(List<Candidate> candidates, Function<List<Candidate>, T> attempt) {
    int lo = 2;
    int hi = candidates.size();
    T best = null;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      T found = attempt.apply(candidates.subList(0, mid));
      if (found != null) {
        best = found;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return best;
  }

  /**
   * Why no node is consolidated while pods are pending, or null: some of the pending pods no claim holds room for need
   * new nodes (planned on every node not going away). Karpenter's consolidation simulates the pending pods with the
   * candidates' and deletes nothing while a new node is needed (it replaces only when one cheaper node holds the pending
   * pods too); Farrier waits, as deleting or replacing nodes in the middle of a scale-up only adds to it. Pods no NodePool
   * can take do not hold it (as upstream, their scheduling errors are not the candidates').
   */
  private String waitingForPending() {
    if (view.pendingPods().isEmpty()) {
      return null;
    }
    List<ExistingNodeView> staying = view.nodes().stream().filter(n -> !leaving.contains(n.name())).toList();
    ProvisioningPlan plan = plan(view.pendingPods(), staying);
    List<String> needing = plan.claims().stream().flatMap(c -> c.pods().stream()).map(PodRef::key).toList();
    if (needing.isEmpty()) {
      return null;
    }
    return needing.size() == 1 ? "pending pod " + needing.getFirst() + " needs a new node: consolidation waits until it has one"
        : needing.size() + " pending pods need new nodes (" + needing.getFirst() + ", ...): consolidation waits until they have them";
  }

  /**
   * Plans the candidates' reschedulable pods as if pending, with their nodes and every node going away removed. The pods
   * still on the nodes going away are planned first, as upstream's simulation plans them with the candidates': they
   * are about to need the same room, and a replacement launched for them holds none while they are bound elsewhere (its
   * promise counts only pods not bound yet). Their moves were decided before, so they keep the room they find; when
   * some of them find none, that plan is the answer ({@link #displacedWithoutHome}). Without them two consolidations a
   * round apart planned their pods into the same room, and the kube-scheduler left one pod pending for a new node: a
   * fleet that kept launching and deleting nodes.
   */
  private ProvisioningPlan simulate(List<Candidate> set, Map<String, ExistingNodeView> nodes) {
    Set<String> removed = new HashSet<>(leaving);
    List<PodSpecView> pods = new ArrayList<>();
    for (Candidate c : set) {
      removed.add(c.claim().nodeName());
      nodes.get(c.claim().nodeName()).pods().stream().filter(PodSpecView::reschedulable).forEach(pods::add);
    }
    List<ExistingNodeView> remaining = view.nodes().stream().filter(n -> !removed.contains(n.name())).toList();
    Set<String> own = set.stream().map(c -> c.claim().nodeName()).collect(Collectors.toSet());
    Map<PodRef, PodSpecView> first = new HashMap<>();
    displaced.forEach((node, its) -> {
      if (!own.contains(node)) {
        its.forEach(p -> first.put(p.pod(), p));
      }
    });
    if (!first.isEmpty()) {
      ProvisioningPlan theirs = plan(List.copyOf(first.values()), remaining);
      if (!theirs.claims().isEmpty() || !theirs.unschedulable().isEmpty()) {
        return theirs;
      }
      Map<String, List<PodSpecView>> placed = new HashMap<>();
      theirs.onExisting().forEach(e -> placed.put(e.node(), e.pods().stream().map(first::get).toList()));
      remaining = remaining.stream().map(n -> placed.containsKey(n.name()) ? n.withPlaced(placed.get(n.name())) : n).toList();
    }
    return plan(pods, remaining);
  }

  private ProvisioningPlan plan(List<PodSpecView> pods, List<ExistingNodeView> nodes) {
    ProvisioningSnapshot snapshot = new ProvisioningSnapshot(pods, pools, view.instanceTypes(), view.daemonSetPods(), nodes,
        view.kubelets());
    return new ProvisioningPlanner().plan(snapshot, "consolidation", ClaimNamer.standard(), memo);
  }

  /** How many pods the candidate moves: its reschedulable ones. */
  private static int moved(Candidate c, Map<String, ExistingNodeView> nodes) {
    return (int) nodes.get(c.claim().nodeName()).pods().stream().filter(PodSpecView::reschedulable).count();
  }

  /**
   * Why the candidates cannot go because a pod of a node going away would then have no home on the nodes staying (it
   * needs a new node, which a replacement sized for the candidates' pods is not), or null.
   */
  private String displacedWithoutHome(ProvisioningPlan plan) {
    for (UnschedulablePod u : plan.unschedulable()) {
      if (displacedPods.contains(u.pod())) {
        return "pod " + u.pod().key() + ", on a node going away, would then have no home: " + u.reason();
      }
    }
    for (NodeClaimRequest claim : plan.claims()) {
      for (PodRef p : claim.pods()) {
        if (displacedPods.contains(p)) {
          return "pod " + p.key() + ", on a node going away, would then need a new node (the pods of nodes going away come first)";
        }
      }
    }
    return null;
  }

  /** The candidate's own price: its instance type's offering in its zone and capacity type; NaN when unknown. */
  private double price(NodeClaimView claim, NodePoolView pool) {
    return ClaimPrice.running(claim, view.instanceTypes().getOrDefault(pool.name(), List.of()));
  }

  private static String names(List<Candidate> candidates) {
    return candidates.stream().map(c -> c.claim().name()).collect(Collectors.joining(", "));
  }

  private static String money(double perHour) {
    return Double.isNaN(perHour) ? "(unknown)" : String.format(Locale.ROOT, "$%.4f", perHour);
  }
}

package dev.farrier.workflows.planner;

import dev.farrier.workflows.activities.DisruptionMethod;
import dev.farrier.workflows.activities.ProvisioningPlan;
import dev.farrier.workflows.activities.ReplacementPlan;
import dev.farrier.workflows.model.NodeClaimRequest;
import dev.farrier.workflows.model.WellKnown;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Consolidation of underutilized nodes ({@code WhenEmptyOrUnderutilized}), as Karpenter v1's multi-node and
 * single-node methods, decided with the provisioning scheduler itself ({@link ProvisioningPlanner}: one scheduler, not
 * two): the candidates' pods are planned as if pending, on every other node that is not going away, with new claims
 * from the NodePools when they do not fit.
 *
 * <ol>
 *   <li>Multi-node: the largest prefix (at least two, of the first {@value #MAX_CANDIDATES}) of the candidates, cheapest to
 *       disrupt first, whose pods all fit on the remaining nodes is deleted, found by binary search as upstream does.
 *       (Upstream also replaces several nodes with one cheaper node; Farrier's replacements are one per node, so that
 *       form is not built.)</li>
 *   <li>Single-node, in the same order, the first candidate that can go: deleted when its pods fit on the other nodes;
 *       else replaced when one node made only of offerings cheaper than the candidate's holds all of its pods, planned
 *       exactly as the replacement workflow will plan it ({@link ProvisioningPlanner#planReplacement} under
 *       {@link Command#maxPricePerHour}). A spot node is only deleted unless spot-to-spot consolidation is on
 *       ({@link ConsolidationView#spotToSpot}, off by default as Karpenter's gate): then it is replaced by a spot node
 *       when at least {@value CheaperOfferings#SPOT_TO_SPOT_MIN_TYPES} cheaper spot types hold its pods, launched with
 *       the cheapest of them ({@link CheaperOfferings#spotToSpot}).</li>
 * </ol>
 * One round issues the commands of one method, as upstream; every candidate not chosen gets why.
 */
final class Underutilization {
  /** At most this many candidates are considered for multi-node consolidation in one round (upstream's limit). */
  static final int MAX_CANDIDATES = 100;

  record Candidate(NodeClaimView claim, NodePoolView pool) {}

  /**
   * A decided consolidation of one node.
   *
   * @param maxPricePerHour for a replacement, the candidate's price: the replacement may only use cheaper offerings
   */
  record Command(NodeClaimView claim, NodePoolView pool, DisruptionMethod method, String detail, Double maxPricePerHour) {}

  /** The commands, and for every candidate not commanded, why not. */
  record Outcome(List<Command> commands, Map<String, String> whyNot) {}

  private final ConsolidationView view;
  private final List<NodePoolView> pools;
  private final Set<String> leaving;

  /**
   * @param leaving nodes already going away (being disrupted, or commanded this round): never a home for moved pods
   */
  Underutilization(ConsolidationView view, List<NodePoolView> pools, Set<String> leaving) {
    this.view = view;
    this.pools = pools;
    this.leaving = leaving;
  }

  /**
   * Chooses among {@code candidates} (each already past consolidateAfter, do-not-disrupt, freezes and PDBs);
   * {@code room} is how many more nodes each NodePool's budgets for {@code Underutilized} allow.
   */
  Outcome choose(List<Candidate> candidates, Map<String, Integer> room) {
    Map<String, String> whyNot = new LinkedHashMap<>();
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
    int fits = largestDeletablePrefix(withinBudget, nodes);
    if (fits >= 2) {
      List<Command> commands = new ArrayList<>();
      List<Candidate> chosen = withinBudget.subList(0, fits);
      for (Candidate c : chosen) {
        commands.add(new Command(c.claim(), c.pool(), DisruptionMethod.DELETE, "multi-node: the pods of " + fits + " nodes ("
            + names(chosen) + ") fit on the other nodes", null));
      }
      eligible.stream().filter(c -> !chosen.contains(c))
          .forEach(c -> whyNot.putIfAbsent(c.claim().name(), "another consolidation was chosen this round (multi-node of " + fits + ")"));
      return new Outcome(commands, whyNot);
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
    return new Outcome(chosen == null ? List.of() : List.of(chosen), whyNot);
  }

  /** One candidate's single-node consolidation, or why it cannot go. */
  private record Verdict(Command command, String whyNot) {
    static Verdict no(String why) {
      return new Verdict(null, why);
    }
  }

  private Verdict single(Candidate c, Map<String, ExistingNodeView> nodes) {
    ProvisioningPlan plan = simulate(List.of(c), nodes);
    int pods = plan.onExisting().stream().mapToInt(e -> e.pods().size()).sum()
        + plan.claims().stream().mapToInt(k -> k.pods().size()).sum() + plan.unschedulable().size();
    if (!plan.unschedulable().isEmpty()) {
      var first = plan.unschedulable().getFirst();
      return Verdict.no("its pods would not fit elsewhere: " + first.pod().key() + ": " + first.reason());
    }
    if (plan.claims().isEmpty()) {
      return new Verdict(new Command(c.claim(), c.pool(), DisruptionMethod.DELETE,
          "its " + pods + (pods == 1 ? " pod fits" : " pods fit") + " on the other nodes", null), null);
    }
    // They need a new node: whether one cheaper node holds them all is the replacement's own planning below (the
    // simulation above sizes its claims by price, and may split pods that one node would hold).
    boolean spot = WellKnown.CAPACITY_SPOT.equals(c.claim().capacityType());
    if (spot && !view.spotToSpot()) {
      return Verdict.no("a spot node is consolidated only by deletion (spot-to-spot consolidation is off, as Karpenter's default:"
          + " farrier.feature-gates.spot-to-spot-consolidation), and its pods need a new node");
    }
    double current = price(c.claim(), c.pool());
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
        view.kubelets().getOrDefault(c.pool().name(), KubeletSettings.DEFAULTS)));
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
    return new Verdict(new Command(c.claim(), c.pool(), DisruptionMethod.REPLACE, "replace with a cheaper node: "
        + money(current) + "/h to " + money(cheapest) + "/h (" + claim.instanceTypes().getFirst()
        + (claim.instanceTypes().size() > 1 ? " and " + (claim.instanceTypes().size() - 1) + " other types" : "")
        + ") for its " + pods + (pods == 1 ? " pod" : " pods"), current), null);
  }

  /** The largest k (2 or more) such that the first k candidates' pods all fit on the remaining nodes; 0 when none. */
  private int largestDeletablePrefix(List<Candidate> candidates, Map<String, ExistingNodeView> nodes) {
    int lo = 2;
    int hi = candidates.size();
    int best = 0;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      ProvisioningPlan plan = simulate(candidates.subList(0, mid), nodes);
      if (plan.claims().isEmpty() && plan.unschedulable().isEmpty()) {
        best = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return best;
  }

  /** Plans the candidates' reschedulable pods as if pending, with their nodes and every node going away removed. */
  private ProvisioningPlan simulate(List<Candidate> set, Map<String, ExistingNodeView> nodes) {
    Set<String> removed = new HashSet<>(leaving);
    List<PodSpecView> pods = new ArrayList<>();
    for (Candidate c : set) {
      removed.add(c.claim().nodeName());
      nodes.get(c.claim().nodeName()).pods().stream().filter(PodSpecView::reschedulable).forEach(pods::add);
    }
    List<ExistingNodeView> remaining = view.nodes().stream().filter(n -> !removed.contains(n.name())).toList();
    ProvisioningSnapshot snapshot = new ProvisioningSnapshot(pods, pools, view.instanceTypes(), view.daemonSetPods(), remaining,
        view.kubelets());
    return new ProvisioningPlanner().plan(snapshot, "consolidation", ClaimNamer.standard());
  }

  /** The candidate's own price: its instance type's offering in its zone and capacity type; NaN when unknown. */
  private double price(NodeClaimView claim, NodePoolView pool) {
    for (InstanceTypeView t : view.instanceTypes().getOrDefault(pool.name(), List.of())) {
      if (t.name().equals(claim.instanceType())) {
        for (OfferingView o : t.offerings()) {
          if (o.zone().equals(claim.zone()) && o.capacityType().equals(claim.capacityType())) {
            return o.pricePerHour();
          }
        }
      }
    }
    return Double.NaN;
  }

  private static String names(List<Candidate> candidates) {
    return candidates.stream().map(c -> c.claim().name()).collect(Collectors.joining(", "));
  }

  private static String money(double perHour) {
    return Double.isNaN(perHour) ? "(unknown)" : String.format(Locale.ROOT, "$%.4f", perHour);
  }
}

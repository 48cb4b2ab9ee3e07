package dev.farrier.workflows.planner;

import dev.farrier.workflows.activities.ProvisioningPlan;
import dev.farrier.workflows.activities.ReplacementPlan;
import dev.farrier.workflows.model.NodeClaimRequest;
import dev.farrier.workflows.model.PodRef;
import dev.farrier.workflows.model.Requirement;
import dev.farrier.workflows.model.Resources;
import dev.farrier.workflows.model.Taint;
import dev.farrier.workflows.model.UnschedulablePod;
import dev.farrier.workflows.model.WellKnown;
import dev.farrier.workflows.planner.InstanceTypeOptions.Option;
import dev.farrier.workflows.planner.InstanceTypeOptions.TypeFacts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Decides which new NodeClaims a set of pending pods needs, as a pure function of a {@link ProvisioningSnapshot}.
 *
 * <p>Pods are placed biggest first (CPU, then memory, then name): each goes to the first claim planned so far that
 * can still take it, else opens a claim in the first NodePool (highest weight, then name) that admits it. A NodePool
 * admits a pod when the pod tolerates its taints (startup taints are ignored, they are removed before pods land),
 * the pod's nodeSelector and one of its required node affinity terms are compatible with the pool's requirements and
 * template labels, and some instance type meets the combined requirements, has an available offering in an allowed
 * zone and capacity type, has allocatable room ({@link KubeletReserve}) and keeps the pool within its limits. Limits
 * count the pool's current usage plus every claim of this batch at its cheapest type's capacity.
 */
public final class ProvisioningPlanner {

  /**
   * The plan for one batch of pending pods; claims are named by {@code namer} from {@code batchId} and their index
   * in the plan. A pod listed twice is planned once.
   */
  public ProvisioningPlan plan(ProvisioningSnapshot snapshot, String batchId, ClaimNamer namer) {
    List<PoolContext> pools = snapshot.nodePools().stream()
        .sorted(Comparator.comparingInt(NodePoolView::weight).reversed().thenComparing(NodePoolView::name))
        .map(p -> PoolContext.of(p, snapshot.instanceTypesByNodePool().getOrDefault(p.name(), List.of()),
            snapshot.daemonSetPods()))
        .toList();
    Placement placement = new Placement(pools);
    List<UnschedulablePod> unschedulable = new ArrayList<>();
    Map<String, PodSpecView> distinct = new java.util.LinkedHashMap<>();
    snapshot.pendingPods().forEach(p -> distinct.putIfAbsent(p.pod().key(), p));
    List<PodSpecView> pods = distinct.values().stream()
        .sorted(Comparator.comparingLong((PodSpecView p) -> p.requests().milliCpu()).reversed()
            .thenComparing(Comparator.comparingLong((PodSpecView p) -> p.requests().memoryBytes()).reversed())
            .thenComparing(p -> p.pod().key()))
        .toList();
    for (PodSpecView pod : pods) {
      String reason = placement.place(pod);
      if (reason != null) {
        unschedulable.add(new UnschedulablePod(pod.pod(), reason));
      }
    }
    List<NodeClaimRequest> claims = new ArrayList<>();
    for (int i = 0; i < placement.drafts.size(); i++) {
      Draft draft = placement.drafts.get(i);
      claims.add(draft.toRequest(namer.name(draft.pool.pool.name(), batchId, i)));
    }
    unschedulable.sort(Comparator.comparing(u -> u.pod().key()));
    return new ProvisioningPlan(claims, unschedulable);
  }

  /**
   * One claim for the reschedulable pods of a node, from the node's NodePool only. {@code replacement} is null with
   * {@code reschedulablePods == 0} when nothing needs a new home, and null with {@code reschedulablePods > 0} when
   * no claim can hold them (the description says why): the caller must not drain then. When the pods need more than
   * one claim, the first is returned and the description names the pods left to the provisioner.
   */
  public ReplacementPlan planReplacement(ReplacementSnapshot snapshot) {
    List<PodSpecView> reschedulable = snapshot.podsOnNode().stream().filter(PodSpecView::reschedulable).toList();
    if (reschedulable.isEmpty()) {
      return new ReplacementPlan(null, 0, "no reschedulable pods on " + snapshot.nodeClaim() + ": nothing needs a new home");
    }
    NodePoolView pool = snapshot.nodePool();
    Resources usage = pool.usage().minus(snapshot.replacedCapacity());
    NodePoolView withoutReplaced = new NodePoolView(pool.name(), pool.weight(), pool.requirements(), pool.labels(),
        pool.taints(), pool.startupTaints(), pool.nodeClassName(), pool.limits(), usage, pool.hash(), pool.budgets(),
        pool.expireAfter(), pool.terminationGracePeriodSeconds());
    ProvisioningSnapshot forNode = new ProvisioningSnapshot(reschedulable, List.of(withoutReplaced),
        Map.of(pool.name(), snapshot.instanceTypes()), snapshot.daemonSetPods());
    String name = snapshot.replacementName();
    ProvisioningPlan plan = plan(forNode, name, (p, b, i) -> i == 0 ? name : name + "-" + i);
    int count = reschedulable.size();
    if (plan.claims().isEmpty()) {
      return new ReplacementPlan(null, count, "no replacement for " + snapshot.nodeClaim() + " can hold its " + count
          + " reschedulable pods: " + plan.unschedulable().getFirst().reason());
    }
    NodeClaimRequest first = plan.claims().getFirst();
    List<String> leftOver = new ArrayList<>();
    plan.claims().stream().skip(1).forEach(c -> c.pods().forEach(p -> leftOver.add(p.key())));
    plan.unschedulable().forEach(u -> leftOver.add(u.pod().key()));
    String description = "replace " + snapshot.nodeClaim() + " with " + first.name() + " (" + first.instanceTypes().size()
        + " instance types from " + first.instanceTypes().getFirst() + ") for " + first.pods().size() + " of " + count
        + " reschedulable pods";
    if (!leftOver.isEmpty()) {
      description += "; " + leftOver.size() + " pods do not fit with them and are left to the provisioner: "
          + leftOver.stream().sorted().toList();
    }
    return new ReplacementPlan(first, count, description);
  }

  /** A NodePool with what the planner derives from it once per plan. */
  private record PoolContext(
      NodePoolView pool, Requirements requirements, String invalid, List<TypeFacts> types, Resources daemonOverhead) {
    static PoolContext of(NodePoolView pool, List<InstanceTypeView> types, List<PodSpecView> daemonSets) {
      Map<String, String> fixed = new TreeMap<>();
      fixed.put(WellKnown.NODEPOOL_LABEL, pool.name());
      if (pool.nodeClassName() != null) {
        fixed.put(WellKnown.NODECLASS_LABEL, pool.nodeClassName());
      }
      Requirements requirements = Requirements.of(pool.requirements(), "requirement")
          .and(Requirements.ofLabels(pool.labels(), "label"))
          .and(Requirements.ofLabels(fixed, "label"));
      String invalid = requirements.firstUnsatisfiable();
      Resources overhead = Resources.ZERO;
      for (PodSpecView ds : daemonSets) {
        boolean tolerated = Tolerations.firstUntolerated(pool.taints(), ds.tolerations()) == null;
        boolean compatible = alternatives(ds).stream()
            .anyMatch(a -> a.invalid == null && requirements.conflictWith(a.requirements) == null);
        if (tolerated && compatible) {
          overhead = overhead.plus(ds.requestsAsOnePod());
        }
      }
      List<TypeFacts> facts = types.stream().map(TypeFacts::of).toList();
      return new PoolContext(pool, requirements, invalid, facts, overhead);
    }
  }

  /** One way a pod's node constraints can be met: its nodeSelector ANDed with one required affinity term. */
  private record Alternative(String label, Requirements requirements, String invalid) {}

  private static List<Alternative> alternatives(PodSpecView pod) {
    Requirements selector = Requirements.ofLabels(pod.nodeSelector(), "pod nodeSelector");
    List<List<Requirement>> terms = pod.requiredAffinityTerms();
    if (terms.isEmpty()) {
      return List.of(new Alternative("", selector, null));
    }
    List<Alternative> out = new ArrayList<>();
    for (int i = 0; i < terms.size(); i++) {
      String label = terms.size() == 1 ? "" : "(affinity term " + (i + 1) + ") ";
      List<Requirement> term = terms.get(i);
      String invalid = term.isEmpty() ? "an empty node affinity term matches no node" : null;
      out.add(new Alternative(label, Requirements.of(term, "pod node affinity").and(selector), invalid));
    }
    return out;
  }

  /** The claims planned so far and how much of each pool's limits they take. */
  private static final class Placement {
    final List<PoolContext> pools;
    final List<Draft> drafts = new ArrayList<>();
    final Map<String, Resources> plannedByPool = new HashMap<>();

    Placement(List<PoolContext> pools) {
      this.pools = pools;
    }

    /** Places the pod and returns null, or returns why no NodePool admits it. */
    String place(PodSpecView pod) {
      List<Alternative> alternatives = alternatives(pod);
      for (Draft draft : drafts) {
        if (tryJoin(draft, pod, alternatives)) {
          return null;
        }
      }
      if (pools.isEmpty()) {
        return "no NodePool exists";
      }
      List<String> reasons = new ArrayList<>();
      for (PoolContext pool : pools) {
        String reason = tryOpen(pool, pod, alternatives);
        if (reason == null) {
          return null;
        }
        reasons.add("nodepool " + pool.pool.name() + ": " + reason);
      }
      return String.join("; ", reasons);
    }

    private boolean tryJoin(Draft draft, PodSpecView pod, List<Alternative> alternatives) {
      if (admissionProblem(draft.pool, pod) != null) {
        return false;
      }
      Resources requests = draft.podRequests.plus(pod.requestsAsOnePod());
      Resources withOverhead = requests.plus(draft.pool.daemonOverhead);
      // Most open claims are simply full: say so before narrowing requirements and re-ranking.
      if (draft.options.ranked().stream().noneMatch(o -> withOverhead.fitsIn(o.facts().allocatable()))) {
        return false;
      }
      for (Alternative alt : alternatives) {
        if (alt.invalid != null || draft.pool.requirements.conflictWith(alt.requirements) != null) {
          continue;
        }
        Requirements narrowed = draft.requirements.and(alt.requirements);
        if (narrowed.firstUnsatisfiable() != null) {
          continue;
        }
        // A pod that adds no new constraint (the common case) only needs the size re-checked, not labels and prices.
        InstanceTypeOptions options = narrowed.constraints().equals(draft.requirements.constraints())
            ? draft.options.refit(narrowed, withOverhead, limitCheck(draft.pool, draft))
            : InstanceTypeOptions.rank(draft.options.facts(), narrowed, withOverhead, limitCheck(draft.pool, draft));
        if (!options.isEmpty()) {
          setPlanned(draft.pool, planned(draft.pool).minus(draft.counted()).plus(options.cheapest().type().capacity()));
          draft.requirements = narrowed;
          draft.podRequests = requests;
          draft.options = options;
          draft.pods.add(pod.pod());
          return true;
        }
      }
      return false;
    }

    private String tryOpen(PoolContext pool, PodSpecView pod, List<Alternative> alternatives) {
      String problem = admissionProblem(pool, pod);
      if (problem != null) {
        return problem;
      }
      List<String> reasons = new ArrayList<>();
      for (Alternative alt : alternatives) {
        if (alt.invalid != null) {
          reasons.add(alt.label + alt.invalid);
          continue;
        }
        String conflict = pool.requirements.conflictWith(alt.requirements);
        if (conflict != null) {
          reasons.add(alt.label + conflict);
          continue;
        }
        Requirements combined = pool.requirements.and(alt.requirements);
        Resources requests = pod.requestsAsOnePod();
        InstanceTypeOptions options = InstanceTypeOptions.rank(pool.types, combined,
            requests.plus(pool.daemonOverhead), limitCheck(pool, null));
        if (options.isEmpty()) {
          reasons.add(alt.label + options.whyNone());
          continue;
        }
        Draft draft = new Draft(pool, combined, requests, options);
        draft.pods.add(pod.pod());
        drafts.add(draft);
        setPlanned(pool, planned(pool).plus(draft.counted()));
        return null;
      }
      return String.join(", ", reasons);
    }

    /** Why the pool can take no pod like this one whatever the instance type, or null. */
    private static String admissionProblem(PoolContext pool, PodSpecView pod) {
      if (pool.invalid != null) {
        return "its own requirements cannot hold: " + pool.invalid;
      }
      Taint taint = Tolerations.firstUntolerated(pool.pool.taints(), pod.tolerations());
      return taint == null ? null : "taint " + Tolerations.describe(taint) + " not tolerated";
    }

    /** Whether a claim of the given capacity (replacing {@code draft}'s current size, if any) stays within limits. */
    private Function<Resources, String> limitCheck(PoolContext pool, Draft draft) {
      Resources base = pool.pool.usage().plus(planned(pool));
      Resources others = draft == null ? base : base.minus(draft.counted());
      return capacity -> pool.pool.limits().firstExceeded(others.plus(capacity));
    }

    private Resources planned(PoolContext pool) {
      return plannedByPool.getOrDefault(pool.pool.name(), Resources.ZERO);
    }

    private void setPlanned(PoolContext pool, Resources planned) {
      plannedByPool.put(pool.pool.name(), planned);
    }
  }

  /** A claim being planned: it narrows and grows as pods join. */
  private static final class Draft {
    final PoolContext pool;
    Requirements requirements;
    Resources podRequests;
    InstanceTypeOptions options;
    final List<PodRef> pods = new ArrayList<>();

    Draft(PoolContext pool, Requirements requirements, Resources podRequests, InstanceTypeOptions options) {
      this.pool = pool;
      this.requirements = requirements;
      this.podRequests = podRequests;
      this.options = options;
    }

    /** What this claim counts against the pool's limits: its cheapest type's capacity. */
    Resources counted() {
      return options.cheapest().type().capacity();
    }

    NodeClaimRequest toRequest(String name) {
      NodePoolView np = pool.pool;
      List<Option> top = options.top();
      List<String> typeNames = top.stream().map(o -> o.type().name()).toList();
      Set<String> zones = new TreeSet<>();
      Set<String> capacityTypes = new TreeSet<>();
      Set<String> arches = new TreeSet<>();
      for (Option o : top) {
        zones.addAll(o.zones());
        capacityTypes.addAll(o.capacityTypes());
        arches.add(o.type().arch());
      }
      Map<String, List<String>> narrowedTo = Map.of(
          WellKnown.INSTANCE_TYPE_LABEL, typeNames,
          WellKnown.ZONE_LABEL, List.copyOf(zones),
          WellKnown.CAPACITY_TYPE_LABEL, List.copyOf(capacityTypes),
          WellKnown.ARCH_LABEL, List.copyOf(arches));
      List<Requirement> reqs = new ArrayList<>();
      Set<String> keys = new TreeSet<>(requirements.constraints().keySet());
      keys.addAll(narrowedTo.keySet());
      for (String key : keys) {
        if (narrowedTo.containsKey(key)) {
          reqs.add(new Requirement(key, "In", narrowedTo.get(key), requirements.get(key).minValues()));
        } else {
          reqs.addAll(requirements.get(key).toRequirements(key));
        }
      }
      Map<String, String> labels = new TreeMap<>(np.labels());
      labels.put(WellKnown.NODEPOOL_LABEL, np.name());
      requirements.constraints().forEach((key, c) -> {
        if (c.mustExist() && !Requirements.isWellKnown(key) && !labels.containsKey(key)) {
          labels.put(key, c.someValue());
        }
      });
      return new NodeClaimRequest(name, np.name(), np.nodeClassName(), typeNames, reqs,
          podRequests.plus(pool.daemonOverhead), labels, np.taints(), np.startupTaints(), np.hash(), np.expireAfter(),
          np.terminationGracePeriodSeconds(), pods);
    }
  }
}

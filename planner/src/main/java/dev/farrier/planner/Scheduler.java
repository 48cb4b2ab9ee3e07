package dev.farrier.planner;

import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.ExistingPlacement;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.PodRef;
import dev.farrier.model.Resources;
import dev.farrier.model.Taint;
import dev.farrier.model.UnschedulablePod;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.InstanceTypeOptions.Option;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * One run of the provisioning planner over one snapshot (see {@link ProvisioningPlanner} for the rules). Mutable
 * state lives here and dies with the run. Longer than 400 lines on purpose: the placement loop (existing nodes, claims
 * in flight, new claims, and the relaxation of preferences between passes) is one algorithm whose steps share the
 * run's indexes; split, each part would need them all.
 */
final class Scheduler {
  /** Passes over pods that failed but may fit once others are placed (pod affinity, spread minimums). */
  private static final int MAX_RETRY_PASSES = 4;

  private final List<PoolContext> pools;
  private final List<ExistingSlot> existing;
  private final List<Draft> drafts = new ArrayList<>();
  /**
   * The room of the existing nodes and of the claims, same order, so first fit skips the full ones without offering
   * them the pod. A claim of a pool with limits stays {@link RoomIndex#ANY}: its room can grow back (see offerDraft).
   */
  private final RoomIndex existingRooms = new RoomIndex();
  private final RoomIndex draftRooms = new RoomIndex();
  private final Resources[] planned;
  private final TopologyState topology;
  private final Set<String> zoneLikeKeys;
  private final ClaimSizing[] sizing;
  private Map<PodShape, RemainingPods> remaining = Map.of();

  /** False to let claims grow while any listed type holds them (a replacement must take all of a node's pods). */
  private final boolean sizeByPrice;

  /**
   * False to offer every pod to every target, the plain first fit the skip over targets refused for good
   * ({@link PodShape.Attempt#draftsRefusedForGood}) must give the same plans as; tests compare the two.
   */
  private final boolean skipRefused;

  /** What a target answers when offered a pod. */
  private enum Offer {
    TAKEN,
    REFUSED,
    /** Refused for a reason that only gets worse as pods are placed: it will refuse this pod's shape and level again. */
    REFUSED_FOR_GOOD
  }

  Scheduler(ProvisioningSnapshot snapshot) {
    this(snapshot, true, true, TypeMemo.none());
  }

  Scheduler(ProvisioningSnapshot snapshot, TypeMemo memo) {
    this(snapshot, true, true, memo);
  }

  Scheduler(ProvisioningSnapshot snapshot, boolean sizeByPrice) {
    this(snapshot, sizeByPrice, true, TypeMemo.none());
  }

  Scheduler(ProvisioningSnapshot snapshot, boolean sizeByPrice, boolean skipRefused) {
    this(snapshot, sizeByPrice, skipRefused, TypeMemo.none());
  }

  /** {@code memo}: what this plan shares with others over the same instance types (a consolidation round's). */
  Scheduler(ProvisioningSnapshot snapshot, boolean sizeByPrice, boolean skipRefused, TypeMemo memo) {
    this.sizeByPrice = sizeByPrice;
    this.skipRefused = skipRefused;
    List<NodePoolView> ordered = snapshot.nodePools().stream()
        .sorted(Comparator.comparingInt(NodePoolView::weight).reversed().thenComparing(NodePoolView::name))
        .toList();
    List<PoolContext> contexts = new ArrayList<>();
    for (NodePoolView p : ordered) {
      contexts.add(PoolContext.of(p, contexts.size(), snapshot.instanceTypesByNodePool().getOrDefault(p.name(), List.of()),
          snapshot.daemonSetPods(), snapshot.kubelet(p.name()), memo));
    }
    this.pools = List.copyOf(contexts);
    this.planned = new Resources[pools.size()];
    this.sizing = new ClaimSizing[pools.size()];
    java.util.Arrays.fill(planned, Resources.ZERO);
    Map<String, NodePoolView> poolsByName = new HashMap<>();
    ordered.forEach(p -> poolsByName.put(p.name(), p));
    List<ExistingNodeView> nodes = snapshot.existingNodes().stream()
        .sorted(Comparator.comparing((ExistingNodeView n) -> !n.initialized()).thenComparing(ExistingNodeView::name))
        .toList();
    List<ExistingSlot> slots = new ArrayList<>();
    for (ExistingNodeView n : nodes) {
      NodePoolView pool = n.nodePool() == null ? null : poolsByName.get(n.nodePool());
      slots.add(new ExistingSlot(n, slots.size(), pool == null ? List.of() : pool.startupTaints()));
    }
    this.existing = List.copyOf(slots);
    for (ExistingSlot s : existing) {
      if (s.node.acceptsPods()) {
        existingRooms.add(s.remaining.milliCpu(), s.remaining.memoryBytes(), s.remaining.pods());
      } else {
        existingRooms.add(RoomIndex.NONE, RoomIndex.NONE, RoomIndex.NONE);
      }
    }
    this.topology = new TopologyState(universe(pools, existing));
    this.zoneLikeKeys = new TreeSet<>();
  }

  /**
   * Per topology key, every domain (existing nodes' label values, pools' offered zones and capacity types, pool values),
   * each with the taints of the nodes and pools that offer it.
   */
  private static Map<String, Map<String, Set<List<Taint>>>> universe(List<PoolContext> pools, List<ExistingSlot> existing) {
    Map<String, Map<String, Set<List<Taint>>>> universe = new HashMap<>();
    for (PoolContext pool : pools) {
      if (pool.invalid != null) {
        continue;
      }
      List<Taint> taints = pool.pool.taints();
      pool.offered(pool.requirements).forEach((key, values) -> values.forEach(v -> addDomain(universe, key, v, taints)));
      pool.requirements.constraints().forEach((key, c) -> {
        if (c.in() != null && !Requirements.isOfferingKey(key)) {
          c.in().forEach(v -> addDomain(universe, key, v, taints));
        }
      });
    }
    for (ExistingSlot s : existing) {
      s.node.labels().forEach((k, v) -> addDomain(universe, k, v, s.taints));
    }
    return universe;
  }

  private static void addDomain(Map<String, Map<String, Set<List<Taint>>>> universe, String key, String domain, List<Taint> taints) {
    universe.computeIfAbsent(key, k -> new TreeMap<>()).computeIfAbsent(domain, d -> new HashSet<>()).add(taints);
  }

  ProvisioningPlan run(List<PodSpecView> pendingPods, String batchId, ClaimNamer namer) {
    Map<String, PodSpecView> distinct = new LinkedHashMap<>();
    pendingPods.forEach(p -> distinct.putIfAbsent(p.pod().key(), p));
    Map<PodShape.Key, PodShape> shapes = new HashMap<>();
    List<Map.Entry<PodSpecView, PodShape>> pods = new ArrayList<>();
    for (PodSpecView p : distinct.values()) {
      PodShape shape = shapes.computeIfAbsent(PodShape.Key.of(p), k -> new PodShape(p, pools.size()));
      pods.add(Map.entry(p, shape));
    }
    shapes.values().forEach(topology::register);
    Map<PodShape, Integer> replicas = new HashMap<>();
    Resources demand = Resources.ZERO;
    for (var e : pods) {
      replicas.merge(e.getValue(), 1, Integer::sum);
      demand = demand.plus(e.getValue().requests);
    }
    remaining = RemainingPods.of(replicas);
    for (PoolContext pool : pools) {
      sizing[pool.index] = new ClaimSizing(pool, demand);
    }
    for (ExistingSlot slot : existing) {
      for (PodSpecView p : countedOn(slot, distinct)) {
        topology.registerExisting(p, slot);
      }
      slot.node.nominated().stream().filter(p -> !distinct.containsKey(p.pod().key())).forEach(slot::holds);
    }
    topology.link(shapes.values());
    if (topology.hasGroups()) {
      for (ExistingSlot slot : existing) {
        for (PodSpecView p : countedOn(slot, distinct)) {
          topology.countExisting(p, slot);
        }
      }
    }
    zoneLikeKeys.addAll(topology.zoneLikeKeys());

    pods.sort(Comparator.comparingLong((Map.Entry<PodSpecView, PodShape> e) -> e.getValue().requests.milliCpu()).reversed()
        .thenComparing(Comparator.comparingLong((Map.Entry<PodSpecView, PodShape> e) -> e.getValue().requests.memoryBytes()).reversed())
        .thenComparing(e -> e.getKey().pod().key()));
    List<Map.Entry<PodSpecView, PodShape>> failed = new ArrayList<>();
    for (var e : pods) {
      if (!place(e.getKey().pod(), e.getValue())) {
        failed.add(e);
      }
    }
    for (int pass = 0; pass < MAX_RETRY_PASSES && !failed.isEmpty(); pass++) {
      List<Map.Entry<PodSpecView, PodShape>> still = new ArrayList<>();
      boolean progress = false;
      for (var e : failed) {
        if (e.getValue().dependsOnOthers() && place(e.getKey().pod(), e.getValue())) {
          progress = true;
        } else {
          still.add(e);
        }
      }
      failed = still;
      if (!progress) {
        break;
      }
    }

    List<UnschedulablePod> unschedulable = new ArrayList<>();
    Map<PodShape, String> reasons = new HashMap<>();
    for (var e : failed) {
      unschedulable.add(new UnschedulablePod(e.getKey().pod(), reasons.computeIfAbsent(e.getValue(), this::explain)));
    }
    unschedulable.sort(Comparator.comparing(u -> u.pod().key()));
    List<NodeClaimRequest> claims = new ArrayList<>();
    ReservationLedger reservations = ReservationLedger.of(pools);
    for (int i = 0; i < drafts.size(); i++) {
      Draft draft = drafts.get(i);
      NodeClaimRequest claim = draft.toRequest(namer.name(draft.pool.name(), batchId, i));
      claims.add(reservations.isEmpty() ? claim : reservations.assign(claim, draft.pool.types));
    }
    List<ExistingPlacement> onExisting = new ArrayList<>();
    existing.stream().filter(s -> !s.placed.isEmpty()).sorted(Comparator.comparing(s -> s.node.name()))
        .forEach(s -> onExisting.add(new ExistingPlacement(s.node.name(), s.placed)));
    return new ProvisioningPlan(claims, unschedulable, onExisting);
  }

  /**
   * The pods topology counts where the node or claim is: those bound to it and those nominated to it, less any of
   * this batch (planned again now, they count where they go).
   */
  private static List<PodSpecView> countedOn(ExistingSlot slot, Map<String, PodSpecView> batch) {
    if (slot.node.nominated().isEmpty()) {
      return slot.node.pods();
    }
    List<PodSpecView> pods = new ArrayList<>(slot.node.pods());
    slot.node.nominated().stream().filter(p -> !batch.containsKey(p.pod().key())).forEach(pods::add);
    return pods;
  }

  /** Places the pod on the first target that takes it, giving up preferences one at a time; false when none does. */
  private boolean place(PodRef pod, PodShape shape) {
    for (int level = 0; level < shape.levels(); level++) {
      PodShape.Attempt attempt = shape.attempt(level);
      Narrowing narrowing = topology.narrow(shape, attempt);
      if (narrowing.failure() != null) {
        continue;
      }
      if (tryExisting(pod, shape, attempt, narrowing) || tryDrafts(pod, shape, attempt, narrowing)
          || tryOpen(pod, shape, attempt, narrowing)) {
        RemainingPods left = remaining.get(shape);
        if (left != null) {
          left.placed(shape.requests);
        }
        return true;
      }
    }
    return false;
  }

  /**
   * Offers the pod to the existing nodes and in-flight claims, ready ones first: after those that refused its shape for
   * good, and only to those with room for it (a node's room only shrinks, so the ones skipped refuse it for good too).
   */
  private boolean tryExisting(PodRef pod, PodShape shape, PodShape.Attempt attempt, Narrowing narrowing) {
    boolean prefix = skipRefused;
    int i = skipRefused ? attempt.existingRefusedForGood : 0;
    for (; ; i++) {
      i = skipRefused ? existingRooms.next(i, shape.requests.milliCpu(), shape.requests.memoryBytes(), shape.requests.pods()) : i;
      if (i >= existing.size()) {
        break;
      }
      Offer offer = offerExisting(existing.get(i), pod, shape, attempt, narrowing);
      if (offer == Offer.TAKEN) {
        return true;
      }
      prefix = prefix && offer == Offer.REFUSED_FOR_GOOD;
      if (prefix) {
        attempt.existingRefusedForGood = i + 1;
      }
    }
    if (prefix) {
      attempt.existingRefusedForGood = existing.size();
    }
    return false;
  }

  private Offer offerExisting(ExistingSlot slot, PodRef pod, PodShape shape, PodShape.Attempt attempt, Narrowing narrowing) {
    // Whether it accepts pods, its taints and labels do not change during a plan, and its room only shrinks.
    if (!slot.node.acceptsPods() || !shape.requests.fitsIn(slot.remaining)
        || !attempt.fitsExisting(slot, shape.spec.tolerations(), existing.size())
        || HostPort.firstConflict(slot.usedPorts, shape.spec.hostPorts()) != null
        || slot.volumeLimitPassed(shape.spec.csiVolumes()) != null) {
      return Offer.REFUSED_FOR_GOOD;
    }
    for (var e : narrowing.allowed().entrySet()) {
      String d = slot.domain(e.getKey());
      if (d == null || !e.getValue().contains(d)) {
        return Offer.REFUSED;
      }
    }
    if (!narrowing.allowsHost(slot.host)) {
      return narrowing.refusesHostForGood(slot.host) ? Offer.REFUSED_FOR_GOOD : Offer.REFUSED;
    }
    slot.remaining = slot.remaining.minus(shape.requests);
    existingRooms.set(slot.index, slot.remaining.milliCpu(), slot.remaining.memoryBytes(), slot.remaining.pods());
    slot.placed.add(pod);
    slot.holds(shape.spec);
    topology.record(shape, slot, k -> true);
    return Offer.TAKEN;
  }

  /**
   * Offers the pod to the claims planned so far, in the order they were opened: after those that refused its shape for
   * good, and only to those with room for it (the ones skipped refuse it for good too: see {@link #draftRooms}).
   */
  private boolean tryDrafts(PodRef pod, PodShape shape, PodShape.Attempt attempt, Narrowing narrowing) {
    boolean prefix = skipRefused;
    int i = skipRefused ? attempt.draftsRefusedForGood : 0;
    for (; ; i++) {
      i = skipRefused ? draftRooms.next(i, shape.requests.milliCpu(), shape.requests.memoryBytes(), shape.requests.pods()) : i;
      if (i >= drafts.size()) {
        break;
      }
      Offer offer = offerDraft(drafts.get(i), pod, shape, attempt, narrowing);
      if (offer == Offer.TAKEN) {
        return true;
      }
      prefix = prefix && offer == Offer.REFUSED_FOR_GOOD;
      if (prefix) {
        attempt.draftsRefusedForGood = i + 1;
      }
    }
    if (prefix) {
      attempt.draftsRefusedForGood = drafts.size();
    }
    return false;
  }

  private Offer offerDraft(Draft draft, PodRef pod, PodShape shape, PodShape.Attempt attempt, Narrowing narrowing) {
    PoolContext pool = draft.pool;
    // Without limits a claim's room only shrinks and its requirements only narrow, so what it refuses for resources or
    // labels it refuses for good. With limits, a type another claim gave up can come back into its options.
    Offer refused = pool.limited() ? Offer.REFUSED : Offer.REFUSED_FOR_GOOD;
    if (!draft.hasRoomFor(shape.requests) || shape.admission(pool) != null) {
      return refused;
    }
    // Ports taken stay taken: the claim refuses this shape for the rest of the plan.
    if (HostPort.firstConflict(draft.usedPorts, shape.spec.hostPorts()) != null) {
      return Offer.REFUSED_FOR_GOOD;
    }
    Resources podRequests = draft.podRequests.plus(shape.requests);
    Resources total = podRequests.plus(pool.daemonOverhead);
    if (!draft.mightFit(total)) {
      return refused;
    }
    if (!narrowing.allowsHost(draft.host)) {
      return narrowing.refusesHostForGood(draft.host) ? Offer.REFUSED_FOR_GOOD : Offer.REFUSED;
    }
    Function<Resources, String> limit = pool.limitCheck(planned[pool.index].minus(draft.counted));
    for (int i = 0; i < attempt.alternatives.size(); i++) {
      if (!attempt.compatibleWith(pool, i, pools.size())) {
        continue;
      }
      Requirements r = draft.requirements.and(attempt.alternatives.get(i).requirements()).and(narrowing.requirements());
      if (r.firstUnsatisfiable() != null) {
        continue;
      }
      InstanceTypeOptions options = r.equals(draft.requirements)
          ? InstanceTypeOptions.fit(draft.options.ranked(), r, total, limit)
          : InstanceTypeOptions.fit(pool.compatible(r), r, total, limit);
      if (options.isEmpty()) {
        continue;
      }
      Pinned pinned = pin(pool, r, options, total, narrowing, limit);
      if (pinned != null) {
        commit(draft, pod, shape, pinned, podRequests);
        return Offer.TAKEN;
      }
    }
    // Topology's domains change as pods are placed; without them only the claim's narrowing requirements and growing
    // requests refused the pod.
    return narrowing.allowed().isEmpty() ? refused : Offer.REFUSED;
  }

  private boolean tryOpen(PodRef pod, PodShape shape, PodShape.Attempt attempt, Narrowing narrowing) {
    if (narrowing.blocksNewNode() != null) {
      return false;
    }
    Resources podRequests = shape.requests;
    for (PoolContext pool : pools) {
      if (shape.admission(pool) != null) {
        continue;
      }
      Resources total = podRequests.plus(pool.daemonOverhead);
      Function<Resources, String> limit = pool.limitCheck(planned[pool.index]);
      for (int i = 0; i < attempt.alternatives.size(); i++) {
        if (!attempt.compatibleWith(pool, i, pools.size())) {
          continue;
        }
        Requirements r = pool.requirements.and(attempt.alternatives.get(i).requirements()).and(narrowing.requirements());
        if (r.firstUnsatisfiable() != null) {
          continue;
        }
        InstanceTypeOptions options = InstanceTypeOptions.fit(pool.compatible(r), r, total, limit);
        if (options.isEmpty()) {
          continue;
        }
        Pinned pinned = pin(pool, r, options, total, narrowing, limit);
        if (pinned != null) {
          Draft draft = new Draft(pool, drafts.size(), pool.requirements);
          if (sizeByPrice) {
            draft.cap = sizing[pool.index].cap(pinned.requirements(), pinned.options().ranked(), podRequests,
                remaining.get(shape));
          }
          drafts.add(draft);
          draftRooms.add(RoomIndex.ANY, RoomIndex.ANY, RoomIndex.ANY);
          commit(draft, pod, shape, pinned, podRequests);
          return true;
        }
      }
    }
    return false;
  }

  private record Pinned(Requirements requirements, InstanceTypeOptions options) {}

  /**
   * Narrows the claim to one domain of every key topology restricts, so the spread or affinity the pod counts on
   * holds wherever the claim launches: the emptiest allowed domain of the spread group, then the cheapest, then by
   * name. Null when no listed type can be bought in an allowed domain.
   */
  private Pinned pin(PoolContext pool, Requirements r, InstanceTypeOptions options, Resources total, Narrowing narrowing,
      Function<Resources, String> limit) {
    for (var e : narrowing.allowed().entrySet()) {
      String key = e.getKey();
      Set<String> in = r.get(key).in();
      if (in != null && in.size() == 1) {
        continue;
      }
      Map<String, Double> candidates = domainPrices(options.top(), r, key);
      candidates.keySet().retainAll(e.getValue());
      if (candidates.isEmpty()) {
        return null;
      }
      TopologyGroup balance = narrowing.balanceBy().get(key);
      String chosen = candidates.entrySet().stream()
          .min(Comparator.comparingInt((Map.Entry<String, Double> c) -> balance == null ? 0 : balance.count(c.getKey()))
              .thenComparingDouble(Map.Entry::getValue).thenComparing(Map.Entry::getKey))
          .orElseThrow().getKey();
      r = r.and(key, LabelConstraint.equalTo(chosen), "topology placement " + key + "=" + chosen);
      options = InstanceTypeOptions.fit(pool.compatible(r), r, total, limit);
      if (options.isEmpty()) {
        return null;
      }
    }
    return new Pinned(r, options);
  }

  /** The values of {@code key} the options can take, each with the cheapest price of an offering there. */
  private static Map<String, Double> domainPrices(List<Option> options, Requirements r, String key) {
    Map<String, Double> prices = new TreeMap<>();
    boolean zone = key.equals(WellKnown.ZONE_LABEL);
    if (zone || key.equals(WellKnown.CAPACITY_TYPE_LABEL)) {
      for (Option o : options) {
        for (OfferingView offering : o.type().offerings()) {
          if (offering.available() && o.zones().contains(offering.zone()) && o.capacityTypes().contains(offering.capacityType())) {
            prices.merge(zone ? offering.zone() : offering.capacityType(), offering.pricePerHour(), Math::min);
          }
        }
      }
    } else if (Requirements.isInstanceTypeKey(key)) {
      for (Option o : options) {
        String v = o.facts().labels().get(key);
        if (v != null) {
          prices.merge(v, o.price(), Math::min);
        }
      }
    } else {
      Set<String> in = r.get(key).in();
      if (in != null) {
        in.forEach(v -> prices.put(v, 0.0));
      }
    }
    return prices;
  }

  private void commit(Draft draft, PodRef pod, PodShape shape, Pinned pinned, Resources podRequests) {
    Map<String, String> before = new HashMap<>();
    for (String key : zoneLikeKeys) {
      before.put(key, draft.domain(key));
    }
    PoolContext pool = draft.pool;
    Resources previouslyCounted = draft.counted;
    draft.update(pinned.requirements(), pinned.options(), podRequests);
    if (pool.limited()) {
      planned[pool.index] = planned[pool.index].minus(previouslyCounted).plus(draft.counted);
    } else {
      draftRooms.set(draft.index, draft.roomCpu(), draft.roomMemory(), draft.roomPods());
    }
    draft.pods.add(pod);
    draft.usedPorts.addAll(shape.spec.hostPorts());
    // Pods already on the claim are counted for a key once the claim is pinned to one value of it.
    for (String key : zoneLikeKeys) {
      if (before.get(key) == null && draft.domain(key) != null) {
        for (PodShape member : draft.members) {
          topology.record(member, draft, key::equals);
        }
      }
    }
    draft.members.add(shape);
    topology.record(shape, draft, k -> true);
  }

  /** Why no target takes a pod of this shape even with every preference given up, per NodePool. */
  private String explain(PodShape shape) {
    if (pools.isEmpty()) {
      return "no NodePool exists";
    }
    PodShape.Attempt attempt = shape.attempt(shape.levels() - 1);
    Narrowing narrowing = topology.narrow(shape, attempt);
    List<String> reasons = new ArrayList<>();
    for (PoolContext pool : pools) {
      reasons.add("nodepool " + pool.name() + ": " + explain(shape, attempt, narrowing, pool));
    }
    String reason = String.join("; ", reasons);
    if (existing.stream().anyMatch(s -> s.node.acceptsPods())) {
      reason = reason + "; no existing node or in-flight claim has room for it within its constraints";
    }
    return reason;
  }

  private String explain(PodShape shape, PodShape.Attempt attempt, Narrowing narrowing, PoolContext pool) {
    if (narrowing.failure() != null) {
      return narrowing.failure();
    }
    String admission = shape.admission(pool);
    if (admission != null) {
      return admission;
    }
    HostRule blocking = narrowing.blocksNewNode();
    if (blocking != null) {
      return blocking.description() + " needs a node with a matching pod, and none with one can take it";
    }
    List<String> reasons = new ArrayList<>();
    Resources total = shape.requests.plus(pool.daemonOverhead);
    for (NodeAlternative alt : attempt.alternatives) {
      if (alt.invalid() != null) {
        reasons.add(alt.label() + alt.invalid());
        continue;
      }
      Requirements pod = alt.requirements().and(narrowing.requirements());
      String conflict = pool.requirements.conflictWith(pod);
      if (conflict != null) {
        reasons.add(alt.label() + conflict);
        continue;
      }
      Requirements combined = pool.requirements.and(pod);
      InstanceTypeOptions options = InstanceTypeOptions.rank(pool.types, combined, total, pool.limitCheck(planned[pool.index]));
      reasons.add(alt.label() + (options.isEmpty() ? options.whyNone()
          : "no compatible instance type can be bought in a domain topology allows (" + narrowing.allowed() + ")"));
    }
    return String.join(", ", reasons);
  }
}

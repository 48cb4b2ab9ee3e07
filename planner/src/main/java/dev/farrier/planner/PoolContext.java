package dev.farrier.planner;

import dev.farrier.model.Resources;
import dev.farrier.model.Taint;
import dev.farrier.model.Toleration;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.InstanceTypeOptions.Option;
import dev.farrier.planner.InstanceTypeOptions.TypeFacts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A NodePool with what one plan derives from it once: its combined requirements, its instance types' allocatable
 * under its node class's kubelet settings, its DaemonSet overhead, and (cached per requirement set, because pods of a
 * batch share few of them) which of its instance types and offerings a requirement set allows, cheapest first.
 */
final class PoolContext {
  final NodePoolView pool;
  final int index;
  final Requirements requirements;
  /** Why the pool's own requirements can never hold, or null. */
  final String invalid;
  final List<TypeFacts> types;
  final Resources daemonOverhead;
  /** The host ports of the DaemonSets that run on its nodes: every new node of the pool holds them. */
  final List<HostPort> daemonPorts;
  /** Cached per requirement set, shared by every plan over the same instance types ({@link TypeMemo}). */
  private final Map<Requirements, List<Option>> compatible;
  private final Map<Requirements, Map<String, Set<String>>> offered;

  private PoolContext(NodePoolView pool, int index, Requirements requirements, String invalid, TypeMemo.Shared types,
      Resources daemonOverhead, List<HostPort> daemonPorts) {
    this.pool = pool;
    this.index = index;
    this.requirements = requirements;
    this.invalid = invalid;
    this.types = types.facts;
    this.compatible = types.compatible;
    this.offered = types.offered;
    this.daemonOverhead = daemonOverhead;
    this.daemonPorts = List.copyOf(daemonPorts);
  }

  static PoolContext of(NodePoolView pool, int index, List<InstanceTypeView> types, List<PodSpecView> daemonSets,
      KubeletSettings kubelet, TypeMemo memo) {
    Map<String, String> fixed = new TreeMap<>();
    fixed.put(WellKnown.NODEPOOL_LABEL, pool.name());
    if (pool.nodeClassName() != null) {
      fixed.put(WellKnown.NODECLASS_LABEL, pool.nodeClassName());
    }
    Requirements requirements = Requirements.of(pool.requirements(), "requirement")
        .and(Requirements.ofLabels(pool.labels(), "label"))
        .and(Requirements.ofLabels(fixed, "label"));
    Resources overhead = Resources.ZERO;
    List<HostPort> ports = new ArrayList<>();
    for (PodSpecView ds : daemonSets) {
      boolean tolerated = Tolerations.firstUntolerated(pool.taints(), ds.tolerations()) == null;
      boolean compatible = NodeAlternative.of(ds, List.of()).stream()
          .anyMatch(a -> a.invalid() == null && requirements.conflictWith(a.requirements()) == null);
      if (tolerated && compatible) {
        overhead = overhead.plus(ds.requestsAsOnePod());
        ports.addAll(ds.hostPorts());
      }
    }
    return new PoolContext(pool, index, requirements, requirements.firstUnsatisfiable(), memo.of(types, kubelet), overhead, ports);
  }

  String name() {
    return pool.name();
  }

  /** Why no pod with these tolerations can land in this pool whatever the instance type, or null. */
  String admissionProblem(List<Toleration> tolerations) {
    if (invalid != null) {
      return "its own requirements cannot hold: " + invalid;
    }
    Taint taint = Tolerations.firstUntolerated(pool.taints(), tolerations);
    return taint == null ? null : "taint " + Tolerations.describe(taint) + " not tolerated";
  }

  /** Why a pod asking for these host ports cannot join a new node of the pool (a DaemonSet holds one), or null. */
  String portProblem(List<HostPort> wanted) {
    HostPort taken = HostPort.firstConflict(daemonPorts, wanted);
    return taken == null ? null : "hostPort " + taken.describe() + " is held by a DaemonSet on every node of the pool";
  }

  /**
   * The types whose labels meet {@code r} and that have an available offering in a zone and capacity type {@code r}
   * allows, each priced at its cheapest such offering, cheapest first (then by name). Cached per requirement set and
   * instance type list.
   */
  List<Option> compatible(Requirements r) {
    List<Option> cached = compatible.get(r);
    if (cached == null) {
      cached = computeCompatible(r);
      compatible.put(r, cached);
    }
    return cached;
  }

  /** The zones and capacity types (by label key) the types {@link #compatible} with {@code r} are offered in. */
  Map<String, Set<String>> offered(Requirements r) {
    Map<String, Set<String>> cached = offered.get(r);
    if (cached == null) {
      Set<String> zones = new TreeSet<>();
      Set<String> capacityTypes = new TreeSet<>();
      for (Option o : compatible(r)) {
        zones.addAll(o.zones());
        capacityTypes.addAll(o.capacityTypes());
      }
      cached = zones.isEmpty() ? Map.of() : Map.of(WellKnown.ZONE_LABEL, zones, WellKnown.CAPACITY_TYPE_LABEL, capacityTypes);
      offered.put(r, cached);
    }
    return cached;
  }

  private List<Option> computeCompatible(Requirements r) {
    LabelConstraint zone = r.get(WellKnown.ZONE_LABEL);
    LabelConstraint capacityType = r.get(WellKnown.CAPACITY_TYPE_LABEL);
    List<Option> out = new ArrayList<>();
    for (TypeFacts facts : types) {
      if (!r.allowsOn(facts.labels(), Requirements::isInstanceTypeKey)) {
        continue;
      }
      double price = Double.POSITIVE_INFINITY;
      Set<String> zones = new TreeSet<>();
      Set<String> capacityTypes = new TreeSet<>();
      for (OfferingView o : facts.type().offerings()) {
        if (o.available() && zone.allows(o.zone()) && capacityType.allows(o.capacityType())) {
          price = Math.min(price, o.pricePerHour());
          zones.add(o.zone());
          capacityTypes.add(o.capacityType());
        }
      }
      if (!zones.isEmpty()) {
        out.add(new Option(facts, price, Set.copyOf(zones), Set.copyOf(capacityTypes)));
      }
    }
    out.sort(Comparator.comparingDouble(Option::price).thenComparing(o -> o.type().name()));
    return List.copyOf(out);
  }

  /**
   * Why a claim of the given capacity would take the pool over its limits given what else is counted against it, or
   * null; a null function when the pool has no limits (nothing to check in the inner loops).
   */
  Function<Resources, String> limitCheck(Resources otherwiseCounted) {
    if (pool.limits().equals(NodePoolLimits.NONE)) {
      return null;
    }
    Resources base = pool.usage().plus(otherwiseCounted);
    return capacity -> pool.limits().firstExceeded(base.plus(capacity));
  }

  boolean limited() {
    return !pool.limits().equals(NodePoolLimits.NONE);
  }
}

package dev.farrier.planner;

import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Karpenter's NodeOverlays applied to the instance types of a NodePool, as its {@code nodeoverlay} controller and
 * instance type store do (v1.14.1). Overlays are taken in weight order (highest first; of equal weight, the name later
 * in the alphabet first). An overlay applies to an offering of a type when its requirements hold for the type's labels,
 * the NodePool's name ({@code karpenter.sh/nodepool}) and template labels, and the offering's zone, capacity type and
 * reservation; a label none of them defines meets only NotIn and DoesNotExist. Per offering the first overlay that
 * sets a price decides it ({@link #adjustedPrice}); per extended resource, the first that sets it on a type it applies
 * to, replacing the type's own amount (capacity of different resources merges).
 *
 * <p>A conflict, as Karpenter defines it: an overlay that would set the price of an offering whose price an overlay of
 * the same weight already set, or an extended resource of a type that an overlay of the same weight already set, in
 * any NodePool. The later one in the order is then left out altogether (never half applied) and reported; the first
 * stands. {@link #resolve} decides that once over every NodePool's instance types; {@link #apply} applies what stood
 * to whatever instance types a planning round reads, so provisioning and consolidation see the same prices.
 */
public final class NodeOverlays {
  /** No overlays: {@link #apply} returns the types unchanged. */
  public static final NodeOverlays NONE = new NodeOverlays(List.of(), Map.of());

  /** The NodePool an instance type is offered to: its name and {@code spec.template.metadata.labels}. */
  public record Pool(String name, Map<String, String> labels) {
    public Pool {
      labels = labels == null ? Map.of() : Map.copyOf(labels);
    }
  }

  private static final Comparator<NodeOverlayView> ORDER = Comparator.comparingInt(NodeOverlayView::weight).reversed()
      .thenComparing(NodeOverlayView::name, Comparator.reverseOrder());

  private final List<NodeOverlayView> applied;
  private final Map<String, String> conflicts;

  private NodeOverlays(List<NodeOverlayView> applied, Map<String, String> conflicts) {
    this.applied = List.copyOf(applied);
    this.conflicts = Map.copyOf(conflicts);
  }

  /** The overlays that apply, in the order they take effect (highest weight first). */
  public List<NodeOverlayView> applied() {
    return applied;
  }

  /** Each overlay left out for a conflict, with what it conflicts with. */
  public Map<String, String> conflicts() {
    return conflicts;
  }

  /** Who set a price or a resource first, and with what weight. */
  private record Setter(String name, int weight) {}

  /**
   * Decides which overlays stand against each NodePool's instance types ({@code typesByPool}: every type its NodePool
   * could be offered), leaving out each that conflicts with one of the same weight set before it.
   */
  public static NodeOverlays resolve(List<NodeOverlayView> overlays, Map<Pool, List<InstanceTypeView>> typesByPool) {
    if (overlays.isEmpty()) {
      return NONE;
    }
    Map<String, Setter> prices = new HashMap<>();
    Map<String, Setter> resources = new HashMap<>();
    List<NodeOverlayView> applied = new ArrayList<>();
    Map<String, String> conflicts = new LinkedHashMap<>();
    for (NodeOverlayView overlay : overlays.stream().sorted(ORDER).toList()) {
      Map<String, Setter> pricesSet = new HashMap<>();
      Map<String, Setter> resourcesSet = new HashMap<>();
      String conflict = null;
      var matcher = Matcher.of(overlay.requirements());
      for (var entry : typesByPool.entrySet()) {
        Pool pool = entry.getKey();
        for (InstanceTypeView type : entry.getValue()) {
          boolean typeMatches = false;
          for (OfferingView offering : type.offerings()) {
            if (!matcher.matches(pool, type, offering)) {
              continue;
            }
            typeMatches = true;
            if (overlay.setsPrice()) {
              String key = pool.name() + "/" + type.name() + "/" + offeringKey(offering);
              if (conflict == null && sameWeight(prices.get(key), overlay)) {
                conflict = conflictWith(prices.get(key), overlay,
                    "the price of " + type.name() + " " + offering.capacityType() + " in " + offering.zone() + " of NodePool " + pool.name());
              }
              pricesSet.put(key, new Setter(overlay.name(), overlay.weight()));
            }
          }
          if (typeMatches) {
            for (String resource : overlay.capacity().keySet()) {
              String key = pool.name() + "/" + type.name() + "/" + resource;
              if (conflict == null && sameWeight(resources.get(key), overlay)) {
                conflict = conflictWith(resources.get(key), overlay, "capacity " + resource + " of " + type.name() + " in NodePool " + pool.name());
              }
              resourcesSet.put(key, new Setter(overlay.name(), overlay.weight()));
            }
          }
        }
      }
      if (conflict != null) {
        conflicts.put(overlay.name(), conflict);
        continue;
      }
      applied.add(overlay);
      prices.putAll(pricesSet);
      resources.putAll(resourcesSet);
    }
    return new NodeOverlays(applied, conflicts);
  }

  /** Whether {@code earlier} (null: nobody) set the same thing with the same weight as {@code overlay}: a conflict. */
  private static boolean sameWeight(Setter earlier, NodeOverlayView overlay) {
    return earlier != null && earlier.weight() == overlay.weight();
  }

  private static String conflictWith(Setter earlier, NodeOverlayView overlay, String what) {
    return "conflicts with NodeOverlay " + earlier.name() + " of the same weight (" + overlay.weight() + ") on " + what
        + "; give one of them a higher weight";
  }

  private static String offeringKey(OfferingView o) {
    return o.zone() + "/" + o.capacityType() + (o.reservation() == null ? "" : "/" + o.reservation().id());
  }

  /** {@link #apply(Pool, List)} for a NodePool as the planners see it. */
  public List<InstanceTypeView> apply(NodePoolView pool, List<InstanceTypeView> types) {
    return apply(new Pool(pool.name(), pool.labels()), types);
  }

  /** The types with the prices and extended resources the overlays that stood give them in {@code pool}. */
  public List<InstanceTypeView> apply(Pool pool, List<InstanceTypeView> types) {
    if (applied.isEmpty()) {
      return types;
    }
    List<Matcher> matchers = applied.stream().map(o -> Matcher.of(o.requirements())).toList();
    List<InstanceTypeView> result = new ArrayList<>(types.size());
    for (InstanceTypeView type : types) {
      result.add(apply(pool, type, matchers));
    }
    return result;
  }

  private InstanceTypeView apply(Pool pool, InstanceTypeView type, List<Matcher> matchers) {
    boolean changed = false;
    List<OfferingView> offerings = new ArrayList<>(type.offerings().size());
    for (OfferingView offering : type.offerings()) {
      OfferingView priced = offering;
      for (int i = 0; i < applied.size(); i++) {
        NodeOverlayView overlay = applied.get(i);
        if (overlay.setsPrice() && matchers.get(i).matches(pool, type, offering)) {
          priced = new OfferingView(offering.zone(), offering.capacityType(), adjustedPrice(offering.pricePerHour(), overlay.priceChange()),
              offering.available(), offering.reservation());
          changed = true;
          break;
        }
      }
      offerings.add(priced);
    }
    Map<String, Long> extended = new TreeMap<>();
    for (int i = 0; i < applied.size(); i++) {
      NodeOverlayView overlay = applied.get(i);
      if (overlay.capacity().isEmpty()) {
        continue;
      }
      Matcher matcher = matchers.get(i);
      if (type.offerings().stream().anyMatch(o -> matcher.matches(pool, type, o))) {
        overlay.capacity().forEach(extended::putIfAbsent);
      }
    }
    if (!changed && extended.isEmpty()) {
      return type;
    }
    Resources capacity = type.capacity();
    if (!extended.isEmpty()) {
      Map<String, Long> merged = new TreeMap<>(capacity.extended());
      merged.putAll(extended);
      capacity = new Resources(capacity.milliCpu(), capacity.memoryBytes(), capacity.ephemeralStorageBytes(), capacity.pods(), merged);
    }
    return new InstanceTypeView(type.name(), type.arch(), type.labels(), capacity, offerings);
  }

  /**
   * Karpenter's adjusted price: {@code change} without a sign is the new price; {@code +x} or {@code -x} adds;
   * {@code +x%} or {@code -x%} scales; never below 0. The CRD's patterns admit only these shapes.
   */
  public static double adjustedPrice(double price, String change) {
    if (change == null || change.isEmpty()) {
      return price;
    }
    if (!change.startsWith("+") && !change.startsWith("-")) {
      return Double.parseDouble(change);
    }
    double adjusted = change.endsWith("%")
        ? price * (1 + Double.parseDouble(change.substring(0, change.length() - 1)) / 100)
        : price + Double.parseDouble(change);
    return Math.max(adjusted, 0);
  }

  /** An overlay's requirements, read once, checked against a type's offering in a NodePool. */
  private record Matcher(List<Map.Entry<String, LabelConstraint>> constraints) {
    static Matcher of(List<Requirement> requirements) {
      return new Matcher(requirements.stream().map(r -> Map.entry(r.key(), LabelConstraint.of(r))).toList());
    }

    boolean matches(Pool pool, InstanceTypeView type, OfferingView offering) {
      for (var c : constraints) {
        if (!c.getValue().allows(value(c.getKey(), pool, type, offering))) {
          return false;
        }
      }
      return true;
    }

    private static String value(String key, Pool pool, InstanceTypeView type, OfferingView offering) {
      return switch (key) {
        case WellKnown.NODEPOOL_LABEL -> pool.name();
        case WellKnown.ZONE_LABEL -> offering.zone();
        case WellKnown.CAPACITY_TYPE_LABEL -> offering.capacityType();
        case WellKnown.CAPACITY_RESERVATION_ID_LABEL -> offering.reservation() == null ? null : offering.reservation().id();
        case WellKnown.CAPACITY_RESERVATION_TYPE_LABEL -> offering.reservation() == null ? null : offering.reservation().type();
        case WellKnown.CAPACITY_RESERVATION_INTERRUPTIBLE_LABEL ->
            offering.reservation() == null ? null : Boolean.toString(offering.reservation().interruptible());
        default -> {
          String own = type.labels().get(key);
          yield own != null ? own : pool.labels().get(key);
        }
      };
    }
  }
}

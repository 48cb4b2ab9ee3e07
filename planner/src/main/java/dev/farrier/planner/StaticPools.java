package dev.farrier.planner;

import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Requirement;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Karpenter's static NodePools ({@code spec.replicas}, v1.8+): a NodePool that keeps a fixed number of nodes whatever
 * the pods. As upstream's {@code static/provisioning} and {@code static/deprovisioning} controllers:
 * <ul>
 *   <li>scale up ({@link #launches}): a pool with fewer than {@code replicas} NodeClaims that are not being deleted
 *       (those being disrupted count: their replacement is on its way) gets new claims from its template alone, no
 *       pods, never more than {@code limits.nodes} NodeClaims in all (those being deleted included). Upstream lets
 *       the cloud provider pick the instance type from the template's requirements; Farrier lists every type the
 *       template and node class allow, cheapest first, as for any claim. Upstream leaves the zone to the cloud
 *       provider too (its design punts spreading); Farrier pins each new claim to the allowed zone where the pool has
 *       the fewest claims, so a pool whose requirements allow several zones is spread over them;</li>
 *   <li>scale down ({@link #surplus}): a pool with more initialized, undisrupted NodeClaims than {@code replicas}
 *       removes the difference, empty nodes first (no pod to move and no do-not-disrupt pod), then nodes without a
 *       do-not-disrupt pod before those with one, fewest pods to move first, then the oldest (the least lifetime left,
 *       as upstream's cost weighs it), then by name. Upstream removes claims that have not launched yet first; Farrier
 *       waits for them to initialize (a launch in flight is never cut short) and removes them in a later round.</li>
 * </ul>
 * Pure: the planning activities read the counts and apply the result.
 */
public final class StaticPools {
  private StaticPools() {}

  /**
   * A static pool as the scale-up sees it.
   *
   * @param zones    the zone of each of its NodeClaims not being deleted (null when not known yet)
   * @param deleting how many of its NodeClaims are being deleted (still nodes, so still under {@code limits.nodes})
   */
  public record PoolState(NodePoolView pool, List<String> zones, int deleting) {
    public PoolState {
      zones = new ArrayList<>(zones);
    }

    int present() {
      return zones.size();
    }
  }

  /**
   * The scale-up: new claims, and per pool why it stays short of its {@code replicas} ({@code limits.nodes}, no
   * instance type or zone), for a Warning Event and the log.
   */
  public record Launches(List<NodeClaimRequest> claims, Map<String, String> stayingShort) {
    public Launches {
      claims = List.copyOf(claims);
      stayingShort = Map.copyOf(stayingShort);
    }
  }

  /**
   * The claims each static pool needs to reach its {@code replicas}, named by {@code namer} from {@code batchId} and
   * their index in the result.
   */
  public static Launches launches(List<PoolState> pools, Map<String, List<InstanceTypeView>> types,
      List<PodSpecView> daemonSetPods, Map<String, KubeletSettings> kubelets, String batchId, ClaimNamer namer) {
    List<NodeClaimRequest> claims = new ArrayList<>();
    Map<String, String> stayShort = new TreeMap<>();
    Map<String, PoolContext> contexts = new TreeMap<>();
    for (PoolState state : pools) {
      NodePoolView pool = state.pool();
      if (pool.isStatic()) {
        contexts.put(pool.name(), PoolContext.of(pool, contexts.size(), types.getOrDefault(pool.name(), List.of()), daemonSetPods,
            kubelets.getOrDefault(pool.name(), KubeletSettings.DEFAULTS), TypeMemo.none()));
      }
    }
    // Capacity reservations the template allows are taken first, as for any claim (Karpenter's FinalizeScheduling).
    ReservationLedger reservations = ReservationLedger.of(List.copyOf(contexts.values()));
    for (PoolState state : pools.stream().sorted(Comparator.comparing(s -> s.pool().name())).toList()) {
      NodePoolView pool = state.pool();
      if (!pool.isStatic()) {
        continue;
      }
      long wanted = pool.replicas() - state.present();
      if (wanted <= 0) {
        continue;
      }
      Long limit = pool.nodeLimit();
      long room = limit == null ? wanted : Math.max(0, limit - state.present() - state.deleting());
      long count = Math.min(wanted, room);
      if (count < wanted) {
        stayShort.put(pool.name(), "replicas " + pool.replicas() + " exceed limits.nodes " + limit + ": the NodePool has "
            + (state.present() + state.deleting()) + " NodeClaims and may not launch " + (wanted - count) + " more");
      }
      PoolContext context = contexts.get(pool.name());
      for (long i = 0; i < count; i++) {
        String zone = emptiestZone(context, state.zones());
        NodeClaimRequest claim = zone == null ? null : claim(context, zone, namer.name(pool.name(), batchId, claims.size()));
        if (claim == null) {
          stayShort.put(pool.name(), context.invalid != null ? "its own requirements cannot hold: " + context.invalid
              : "no instance type its requirements and node class allow has an available offering");
          break;
        }
        claim = reservations.assign(claim, context.types);
        claims.add(claim);
        state.zones().add(zoneOf(claim, zone));
      }
    }
    return new Launches(claims, stayShort);
  }

  /**
   * The replacement of one node of a static pool: a claim from the template alone, in the replaced node's zone when
   * the pool still allows it (the spread stays as it was), null when there is none or {@code limits.nodes} has no room
   * for one more ({@code poolNodes}: the pool's NodeClaims now, the replaced one included).
   */
  static NodeClaimRequest replacement(ReplacementSnapshot snapshot) {
    NodePoolView pool = snapshot.nodePool();
    Long limit = pool.nodeLimit();
    if (limit != null && snapshot.poolNodes() != null && snapshot.poolNodes() >= limit) {
      return null;
    }
    PoolContext context = PoolContext.of(pool, 0, snapshot.instanceTypes(), snapshot.daemonSetPods(), snapshot.kubelet(),
        TypeMemo.none());
    String zone = snapshot.zone() != null && zones(context).contains(snapshot.zone()) ? snapshot.zone()
        : emptiestZone(context, List.of());
    NodeClaimRequest claim = zone == null ? null : claim(context, zone, snapshot.replacementName());
    return claim == null ? null : ReservationLedger.of(List.of(context)).assign(claim, context.types);
  }

  /** The one zone the claim is pinned to ({@code otherwise} when a reservation did not move it). */
  private static String zoneOf(NodeClaimRequest claim, String otherwise) {
    return claim.requirements().stream()
        .filter(r -> WellKnown.ZONE_LABEL.equals(r.key()) && "In".equals(r.operator()) && r.values().size() == 1)
        .map(r -> r.values().getFirst()).findFirst().orElse(otherwise);
  }

  /** Why {@link #replacement} has none. */
  static String noReplacement(ReplacementSnapshot snapshot) {
    Long limit = snapshot.nodePool().nodeLimit();
    if (limit != null && snapshot.poolNodes() != null && snapshot.poolNodes() >= limit) {
      return "static NodePool " + snapshot.nodePool().name() + " has " + snapshot.poolNodes() + " NodeClaims, at its limits.nodes "
          + limit;
    }
    return "no instance type of static NodePool " + snapshot.nodePool().name() + " has an available offering";
  }

  /**
   * Which {@code surplus} claims of a static pool to remove now: as many of its initialized claims as it has more than
   * {@code replicas} (counting every claim neither deleting nor being disrupted), in the order of the class comment.
   */
  static List<NodeClaimView> surplus(NodePoolView pool, List<NodeClaimView> claims) {
    List<NodeClaimView> running = claims.stream()
        .filter(c -> pool.name().equals(c.nodePool()) && !c.beingDisrupted()).toList();
    long extra = running.size() - pool.replicas();
    if (extra <= 0) {
      return List.of();
    }
    return running.stream().filter(c -> c.initialized() && !c.aborted())
        .sorted(Comparator.comparing((NodeClaimView c) -> !empty(c))
            .thenComparing(StaticPools::holdsDoNotDisrupt)
            .thenComparingInt(c -> c.pods().reschedulable())
            .thenComparingLong(NodeClaimView::createdAtMillis)
            .thenComparing(NodeClaimView::name))
        .limit(extra).toList();
  }

  /**
   * How far a static pool is below its {@code replicas}, from the disruption planner's snapshot.
   *
   * @param launchable how many claims the scale-up may launch now (0 when it has its count or {@code limits.nodes} is
   *                   reached)
   * @param heldBy     why it stays below its count ({@code limits.nodes}), or null
   */
  public record Shortfall(long launchable, String heldBy) {}

  /** The pool's {@link Shortfall}: claims not being deleted count (those being replaced too), deleting ones only for the limit. */
  static Shortfall shortfall(NodePoolView pool, List<NodeClaimView> claims) {
    long present = claims.stream().filter(c -> pool.name().equals(c.nodePool()) && !c.deleting()).count();
    long deleting = claims.stream().filter(c -> pool.name().equals(c.nodePool()) && c.deleting()).count();
    long wanted = pool.replicas() - present;
    if (wanted <= 0) {
      return new Shortfall(0, null);
    }
    Long limit = pool.nodeLimit();
    long launchable = limit == null ? wanted : Math.min(wanted, Math.max(0, limit - present - deleting));
    return new Shortfall(launchable, launchable == wanted ? null : "replicas " + pool.replicas() + " exceed limits.nodes " + limit
        + ": NodePool " + pool.name() + " has " + (present + deleting) + " NodeClaims and launches " + launchable + " of the "
        + wanted + " it lacks");
  }

  /** No pod to move and nothing that asks not to be disrupted: upstream's empty node. */
  static boolean empty(NodeClaimView claim) {
    return claim.pods().reschedulable() == 0 && !holdsDoNotDisrupt(claim);
  }

  private static boolean holdsDoNotDisrupt(NodeClaimView claim) {
    return claim.doNotDisrupt() || !claim.pods().doNotDisruptPods().isEmpty();
  }

  /** The allowed zone where the pool has the fewest claims (then by name), or null when none is offered. */
  private static String emptiestZone(PoolContext context, List<String> taken) {
    Map<String, Integer> counts = new HashMap<>();
    taken.forEach(z -> counts.merge(String.valueOf(z), 1, Integer::sum));
    return zones(context).stream()
        .min(Comparator.comparingInt((String z) -> counts.getOrDefault(z, 0)).thenComparing(z -> z)).orElse(null);
  }

  private static Set<String> zones(PoolContext context) {
    return context.invalid != null ? Set.of()
        : context.offered(context.requirements).getOrDefault(WellKnown.ZONE_LABEL, Set.of());
  }

  /** A claim of the pool's template pinned to {@code zone}, listing every type that holds its DaemonSets. */
  private static NodeClaimRequest claim(PoolContext context, String zone, String name) {
    Requirements pinned = context.requirements.and(
        Requirements.of(List.of(new Requirement(WellKnown.ZONE_LABEL, "In", List.of(zone), null)), "static spread"));
    InstanceTypeOptions options = InstanceTypeOptions.fit(context.compatible(pinned), pinned, context.daemonOverhead, null);
    if (options.isEmpty()) {
      return null;
    }
    Draft draft = new Draft(context, 0, pinned);
    draft.update(pinned, options, dev.farrier.model.Resources.ZERO);
    return draft.toRequest(name);
  }
}

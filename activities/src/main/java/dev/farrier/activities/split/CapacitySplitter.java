package dev.farrier.activities.split;

import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.RequirementWithMinValues;
import dev.farrier.activities.events.RecentKeys;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.EventSink;
import dev.farrier.activities.kube.PdbBlockedException;
import dev.farrier.activities.kube.PodEvent;
import dev.farrier.activities.kube.PodEvictor;
import dev.farrier.model.Taint;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.CapacitySplit;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass of the spot / on-demand split over every annotated workload: reads pods, nodes and NodePools from the
 * informer cache, decides each workload with {@link CapacitySplit}, then ungates (pinning some) and, when a settled
 * workload is short, evicts one pod on spot through the Eviction API (PDBs hold; do-not-disrupt pods are never picked)
 * so its replacement is decided again.
 *
 * <p>A workload's pods are the ones it controls: a StatefulSet's by their controller reference's UID, a Deployment's
 * through the ReplicaSet that controls them, whose own controller reference names the Deployment's UID (each
 * ReplicaSet read once, by UID, for as long as its pods are seen). A pod is evicted only when its replacement comes
 * back behind the gate: a pod of a ReplicaSet whose template lacks the gate is counted, never evicted.
 *
 * <p>A pod carrying the gate that no annotated workload controls, once it has waited {@link #UNCLAIMED_GRACE}, and every
 * gated pod of a workload whose annotation does not parse, stays gated with a Warning Event saying why: Farrier removes
 * its gate only with a decision. Warnings are written at most once per {@link #EVENT_WINDOW} per object and message,
 * remembered here so a repeat costs no request.
 *
 * <p>The cache may not yet show what this worker did a moment ago; within {@link #MEMORY} the decisions are remembered
 * by pod UID and weighed instead, so a pass never pins a pod twice or counts a pinned pod as still gated, and a pod
 * this worker evicted counts as terminating until the cache shows it terminating or gone: one eviction per workload
 * until its replacement is there.
 */
public final class CapacitySplitter {
  private static final Logger log = LoggerFactory.getLogger(CapacitySplitter.class);
  static final Duration EVENT_WINDOW = Duration.ofMinutes(10);
  static final Duration MEMORY = Duration.ofMinutes(2);
  /** How long a gated pod may wait for its workload to be read before it is said to be nobody's. */
  static final Duration UNCLAIMED_GRACE = Duration.ofSeconds(30);

  /** Reads one ReplicaSet (a bounded GET): who controls it and whether its template is gated. */
  @FunctionalInterface
  public interface ReplicaSets {
    Optional<ReplicaSet> read(String namespace, String name);
  }

  private record ReplicaSetFacts(String controllerUid, boolean templateGated) {
    static final ReplicaSetFacts NONE = new ReplicaSetFacts(null, false);
  }

  private record Evicted(String podUid, Instant at) {}

  private final ClusterReader cluster;
  private final SplitWrites writes;
  private final PodEvictor evictor;
  private final EventSink events;
  private final ReplicaSets replicaSets;
  private final Clock clock;
  private final RecentKeys warned = new RecentKeys(EVENT_WINDOW);
  private final Map<String, Boolean> decided = new HashMap<>();
  private final Map<String, Instant> decidedAt = new HashMap<>();
  private final Map<String, Evicted> evicted = new HashMap<>();
  private final Map<String, ReplicaSetFacts> replicaSetFacts = new HashMap<>();

  public CapacitySplitter(ClusterReader cluster, SplitWrites writes, PodEvictor evictor, EventSink events, ReplicaSets replicaSets,
      Clock clock) {
    this.cluster = cluster;
    this.writes = writes;
    this.evictor = evictor;
    this.events = events;
    this.replicaSets = replicaSets;
    this.clock = clock;
  }

  /**
   * Decides every annotated workload once; {@code stopping} is asked between writes so a pass ends promptly when the
   * worker loses the Lease. A workload whose reads or writes fail is logged and decided again next pass.
   */
  public void pass(List<SplitWorkload> workloads, BooleanSupplier stopping) {
    Instant now = clock.instant();
    decidedAt.entrySet().removeIf(e -> e.getValue().isBefore(now.minus(MEMORY)));
    decided.keySet().retainAll(decidedAt.keySet());
    evicted.values().removeIf(e -> e.at().isBefore(now.minus(MEMORY)));
    // A pod bound between the two lists shows in both: one entry per UID.
    Map<String, Pod> byUid = new LinkedHashMap<>();
    Stream.concat(cluster.listUnboundPods().stream(), cluster.listBoundPods().stream())
        .filter(p -> !"Succeeded".equals(phase(p)) && !"Failed".equals(phase(p)))
        .forEach(p -> byUid.putIfAbsent(p.getMetadata().getUid(), p));
    Map<String, List<Pod>> byNamespace = new HashMap<>();
    byUid.values().forEach(p -> byNamespace.computeIfAbsent(p.getMetadata().getNamespace(), n -> new ArrayList<>()).add(p));
    Map<String, String> capacityOfNode = new HashMap<>();
    for (Node n : cluster.listNodes()) {
      var labels = n.getMetadata().getLabels();
      capacityOfNode.put(n.getMetadata().getName(), labels == null ? "" : labels.getOrDefault(WellKnown.CAPACITY_TYPE_LABEL, ""));
    }
    List<CapacitySplit.Pool> pools = cluster.listNodePools().stream().map(CapacitySplitter::pool).toList();
    Set<String> claimed = new HashSet<>();
    Set<String> replicaSetsSeen = new HashSet<>();
    for (SplitWorkload w : workloads) {
      if (stopping.getAsBoolean()) {
        return;
      }
      try {
        Set<String> notGatedAgain = new HashSet<>();
        List<Pod> own = owned(w, byNamespace.getOrDefault(w.namespace(), List.of()), notGatedAgain, replicaSetsSeen);
        own.forEach(p -> claimed.add(p.getMetadata().getUid()));
        decide(w, own, notGatedAgain, capacityOfNode, pools, now, stopping);
      } catch (RuntimeException e) {
        log.warn("capacity split not applied workload={} error={}", w, e.toString());
      }
    }
    replicaSetFacts.keySet().retainAll(replicaSetsSeen);
    for (Pod p : byUid.values()) {
      if (stopping.getAsBoolean()) {
        return;
      }
      if (gated(p) && !claimed.contains(p.getMetadata().getUid()) && !decided.containsKey(p.getMetadata().getUid())
          && !createdAfter(p, now.minus(UNCLAIMED_GRACE))) {
        unclaimed(p, now);
      }
    }
  }

  /**
   * The workload's pods among its namespace's: the ones it controls. {@code notGatedAgain} collects the UIDs of those
   * whose replacement would not be gated (their ReplicaSet's template lacks the gate).
   */
  private List<Pod> owned(SplitWorkload w, List<Pod> namespacePods, Set<String> notGatedAgain, Set<String> replicaSetsSeen) {
    List<Pod> own = new ArrayList<>();
    for (Pod p : namespacePods) {
      OwnerReference controller = controller(p);
      if (controller == null) {
        continue;
      }
      if (SplitWorkload.STATEFUL_SET.equals(w.kind())) {
        if (SplitWorkload.STATEFUL_SET.equals(controller.getKind()) && w.uid().equals(controller.getUid())) {
          own.add(p);
        }
      } else if ("ReplicaSet".equals(controller.getKind()) && controller.getName().startsWith(w.name() + "-")) {
        // The Deployment controller names its ReplicaSets <deployment>-<hash>: only those are worth a read.
        replicaSetsSeen.add(controller.getUid());
        ReplicaSetFacts facts = replicaSetFacts.computeIfAbsent(controller.getUid(), uid -> readReplicaSet(w.namespace(), controller));
        if (w.uid().equals(facts.controllerUid())) {
          own.add(p);
          if (!facts.templateGated()) {
            notGatedAgain.add(p.getMetadata().getUid());
          }
        }
      }
    }
    return own;
  }

  private ReplicaSetFacts readReplicaSet(String namespace, OwnerReference ref) {
    return replicaSets.read(namespace, ref.getName()).filter(rs -> ref.getUid().equals(rs.getMetadata().getUid()))
        .map(rs -> {
          OwnerReference owner = controller(rs);
          String ownerUid = owner != null && SplitWorkload.DEPLOYMENT.equals(owner.getKind()) ? owner.getUid() : null;
          return new ReplicaSetFacts(ownerUid, SplitWorkload.templateGated(rs.getSpec() == null ? null : rs.getSpec().getTemplate()));
        })
        .orElse(ReplicaSetFacts.NONE);
  }

  private void decide(SplitWorkload w, List<Pod> own, Set<String> notGatedAgain, Map<String, String> capacityOfNode,
      List<CapacitySplit.Pool> pools, Instant now, BooleanSupplier stopping) {
    CapacitySplit.Minimum minimum;
    try {
      minimum = CapacitySplit.Minimum.parse(w.minimum());
    } catch (IllegalArgumentException e) {
      warn(w, "CapacitySplitInvalid", e.getMessage() + "; its gated pods stay gated until the annotation is fixed", now);
      return;
    }
    if (!w.gated()) {
      warn(w, "CapacitySplitNotGated", CapacitySplit.ANNOTATION + " is set but the pod template has no scheduling gate "
          + CapacitySplit.GATE + " (spec.template.spec.schedulingGates): new pods are not decided, the split is not kept", now);
      return;
    }
    Evicted lastEviction = evicted.get(w.key());
    if (lastEviction != null && own.stream().noneMatch(p -> p.getMetadata().getUid().equals(lastEviction.podUid())
        && p.getMetadata().getDeletionTimestamp() == null)) {
      evicted.remove(w.key());
    }
    boolean offered = CapacitySplit.onDemandOffered(w.nodeSelector(), w.tolerations(), pools);
    Map<String, Pod> byName = new HashMap<>();
    List<CapacitySplit.Pod> views = new ArrayList<>();
    for (Pod p : own) {
      byName.put(p.getMetadata().getName(), p);
      views.add(view(p, capacityOfNode, notGatedAgain.contains(p.getMetadata().getUid()), evicted.get(w.key())));
    }
    CapacitySplit split = CapacitySplit.decide(minimum, w.replicas(), views, offered);
    if (!offered && split.belowMinimum()) {
      log.info("capacity split workload={} short without on-demand on offer: {}", w, split.detail());
      warn(w, "CapacitySplitUnsatisfiable", CapacitySplit.ANNOTATION + " " + minimum + ": no NodePool offers on-demand capacity to "
          + "pods with nodeSelector " + w.nodeSelector() + " and the template's tolerations; pods are released without the on-demand pin",
          now);
    }
    if (!split.pin().isEmpty() || !split.release().isEmpty()) {
      log.info("capacity split workload={} pin={} release={} {}", w, split.pin(), split.release(), split.detail());
    }
    for (String name : split.pin()) {
      ungate(byName.get(name), true, now, stopping);
    }
    for (String name : split.release()) {
      ungate(byName.get(name), false, now, stopping);
    }
    if (split.evict() != null && !stopping.getAsBoolean()) {
      rebalance(w, byName.get(split.evict()), split, now);
    }
  }

  private void ungate(Pod pod, boolean pin, Instant now, BooleanSupplier stopping) {
    if (stopping.getAsBoolean()) {
      return;
    }
    if (writes.ungate(pod, pin)) {
      decided.put(pod.getMetadata().getUid(), pin);
      decidedAt.put(pod.getMetadata().getUid(), now);
    }
  }

  private void rebalance(SplitWorkload w, Pod pod, CapacitySplit split, Instant now) {
    String node = pod.getSpec().getNodeName();
    try {
      var outcome = evictor.evictPod(pod);
      evicted.put(w.key(), new Evicted(pod.getMetadata().getUid(), now));
      log.info("capacity split rebalancing workload={} evicted pod={} node={} outcome={} {}", w, pod.getMetadata().getName(), node, outcome,
          split.detail());
      events.recordObjectEvent(w.reference(), "Normal", "CapacitySplitRebalanced", "evicted pod " + pod.getMetadata().getName()
          + " from node " + node + " so its replacement is decided again: " + split.count());
    } catch (PdbBlockedException e) {
      log.info("capacity split rebalancing workload={} pod={} held by PodDisruptionBudget: {}", w, pod.getMetadata().getName(), e.getMessage());
    }
  }

  /** A pod with the gate that no annotated workload controls: left gated, said once per window. */
  private void unclaimed(Pod p, Instant now) {
    String key = "pod\n" + p.getMetadata().getUid();
    if (warned.recent(key, now)) {
      return;
    }
    try {
      events.recordPodEvent(new PodEvent(p.getMetadata().getNamespace(), p.getMetadata().getName(), p.getMetadata().getUid(), "Warning",
          "CapacitySplitUndecided", "scheduling gate " + CapacitySplit.GATE + " is Farrier's, but no Deployment or StatefulSet annotated "
              + CapacitySplit.ANNOTATION + " controls this pod: it stays gated"), EVENT_WINDOW);
      warned.recorded(key, now);
    } catch (RuntimeException e) {
      log.warn("capacity split event not recorded pod={}/{} error={}", p.getMetadata().getNamespace(), p.getMetadata().getName(), e.toString());
    }
  }

  private void warn(SplitWorkload w, String reason, String message, Instant now) {
    String key = w.uid() + "\n" + reason + "\n" + message;
    if (warned.recent(key, now)) {
      return;
    }
    log.warn("capacity split workload={} reason={} {}", w, reason, message);
    try {
      events.recordObjectEvent(w.reference(), "Warning", reason, message);
      warned.recorded(key, now);
    } catch (RuntimeException e) {
      log.warn("capacity split event not recorded workload={} error={}", w, e.toString());
    }
  }

  /**
   * The pod as the decision sees it, with this worker's own recent decision and eviction in place of a cache that lags
   * them.
   */
  private CapacitySplit.Pod view(Pod p, Map<String, String> capacityOfNode, boolean notGatedAgain, Evicted lastEviction) {
    var selector = p.getSpec().getNodeSelector();
    boolean pinned = selector != null && WellKnown.CAPACITY_ON_DEMAND.equals(selector.get(WellKnown.CAPACITY_TYPE_LABEL));
    boolean gated = gated(p);
    Boolean decidedPin = decided.get(p.getMetadata().getUid());
    if (gated && decidedPin != null) {
      gated = false;
      pinned = pinned || decidedPin;
    }
    String node = p.getSpec().getNodeName();
    String capacity = node == null || node.isEmpty() ? null : capacityOfNode.getOrDefault(node, "");
    var annotations = p.getMetadata().getAnnotations();
    boolean doNotDisrupt = annotations != null && "true".equals(annotations.get(WellKnown.DO_NOT_DISRUPT_ANNOTATION));
    boolean terminating = p.getMetadata().getDeletionTimestamp() != null
        || lastEviction != null && lastEviction.podUid().equals(p.getMetadata().getUid());
    return new CapacitySplit.Pod(p.getMetadata().getName(), created(p).toEpochMilli(), gated, pinned, capacity, terminating,
        doNotDisrupt || notGatedAgain);
  }

  static boolean gated(Pod p) {
    var gates = p.getSpec().getSchedulingGates();
    return gates != null && gates.stream().anyMatch(g -> CapacitySplit.GATE.equals(g.getName()));
  }

  private static OwnerReference controller(HasMetadata o) {
    var refs = o.getMetadata().getOwnerReferences();
    return refs == null ? null : refs.stream().filter(r -> Boolean.TRUE.equals(r.getController())).findFirst().orElse(null);
  }

  private static Instant created(Pod p) {
    String at = p.getMetadata().getCreationTimestamp();
    return at == null ? Instant.EPOCH : Instant.parse(at);
  }

  private static boolean createdAfter(Pod p, Instant at) {
    return created(p).isAfter(at);
  }

  private static String phase(Pod p) {
    return p.getStatus() == null ? null : p.getStatus().getPhase();
  }

  private static CapacitySplit.Pool pool(NodePool p) {
    var template = p.getSpec() == null ? null : p.getSpec().template();
    if (template == null) {
      return new CapacitySplit.Pool(p.getMetadata().getName(), Map.of(), List.of(), List.of());
    }
    Map<String, String> labels = template.metadataOrEmpty().labelsOrEmpty();
    var spec = template.spec();
    var requirements = spec == null ? List.<dev.farrier.model.Requirement>of()
        : spec.requirementsOrEmpty().stream().map(RequirementWithMinValues::toRequirement).toList();
    List<Taint> taints = spec == null ? List.of()
        : spec.taintsOrEmpty().stream().map(t -> new Taint(t.getKey(), Objects.requireNonNullElse(t.getValue(), ""), t.getEffect())).toList();
    return new CapacitySplit.Pool(p.getMetadata().getName(), Objects.requireNonNullElse(labels, Map.of()), requirements, taints);
  }
}

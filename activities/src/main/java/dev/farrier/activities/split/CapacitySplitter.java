package dev.farrier.activities.split;

import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.RequirementWithMinValues;
import dev.farrier.activities.events.RecentKeys;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.EventSink;
import dev.farrier.activities.kube.LabelSelectors;
import dev.farrier.activities.kube.PdbBlockedException;
import dev.farrier.activities.kube.PodEvent;
import dev.farrier.activities.kube.PodEvictor;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.CapacitySplit;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass of the spot / on-demand split over every annotated workload: reads pods, nodes and NodePools from the
 * informer cache, decides each workload with {@link CapacitySplit}, then ungates (pinning some) and, at most one pod
 * per workload and {@link #EVICTION_INTERVAL}, evicts through the Eviction API (PDBs hold; do-not-disrupt pods are
 * never picked) so its replacement is decided again.
 *
 * <p>A pod carrying the gate that no annotated workload selects, and every gated pod of a workload whose annotation
 * does not parse, stays gated with a Warning Event saying why: Farrier removes its gate only with a decision. Warnings
 * are written at most once per {@link #EVENT_WINDOW} per workload and message.
 *
 * <p>The cache may not yet show a pod this worker ungated a moment ago; the decisions made within
 * {@link #DECIDED_MEMORY} are remembered by pod UID and weighed instead, so a pass never pins a pod twice or counts a
 * pinned pod as still gated.
 */
public final class CapacitySplitter {
  private static final Logger log = LoggerFactory.getLogger(CapacitySplitter.class);
  /** The least time between two evictions for one workload: its replacement is created, decided and placed meanwhile. */
  public static final Duration EVICTION_INTERVAL = Duration.ofSeconds(15);
  static final Duration EVENT_WINDOW = Duration.ofMinutes(10);
  static final Duration DECIDED_MEMORY = Duration.ofMinutes(2);

  private final ClusterReader cluster;
  private final SplitWrites writes;
  private final PodEvictor evictor;
  private final EventSink podEvents;
  private final Clock clock;
  private final RecentKeys warned = new RecentKeys(EVENT_WINDOW);
  private final Map<String, Boolean> decided = new HashMap<>();
  private final Map<String, Instant> decidedAt = new HashMap<>();
  private final Map<String, Instant> lastEviction = new HashMap<>();

  public CapacitySplitter(ClusterReader cluster, SplitWrites writes, PodEvictor evictor, EventSink podEvents, Clock clock) {
    this.cluster = cluster;
    this.writes = writes;
    this.evictor = evictor;
    this.podEvents = podEvents;
    this.clock = clock;
  }

  /**
   * Decides every annotated workload once; {@code stopping} is asked between writes so a pass ends promptly when the
   * worker loses the Lease. A workload whose writes fail is logged and decided again next pass.
   */
  public void pass(List<SplitWorkload> workloads, BooleanSupplier stopping) {
    Instant now = clock.instant();
    decidedAt.entrySet().removeIf(e -> e.getValue().isBefore(now.minus(DECIDED_MEMORY)));
    decided.keySet().retainAll(decidedAt.keySet());
    List<Pod> pods = Stream.concat(cluster.listUnboundPods().stream(), cluster.listBoundPods().stream())
        .filter(p -> !"Succeeded".equals(phase(p)) && !"Failed".equals(phase(p))).toList();
    Map<String, String> capacityOfNode = new HashMap<>();
    for (Node n : cluster.listNodes()) {
      var labels = n.getMetadata().getLabels();
      capacityOfNode.put(n.getMetadata().getName(), labels == null ? "" : labels.getOrDefault(WellKnown.CAPACITY_TYPE_LABEL, ""));
    }
    List<CapacitySplit.Pool> pools = cluster.listNodePools().stream().map(CapacitySplitter::pool).toList();
    Set<String> claimed = new HashSet<>();
    for (SplitWorkload w : workloads) {
      if (stopping.getAsBoolean()) {
        return;
      }
      List<Pod> own = pods.stream().filter(p -> w.namespace().equals(p.getMetadata().getNamespace())
          && LabelSelectors.matches(w.selector(), p.getMetadata().getLabels())).toList();
      own.forEach(p -> claimed.add(p.getMetadata().getUid()));
      try {
        decide(w, own, capacityOfNode, pools, now, stopping);
      } catch (RuntimeException e) {
        log.warn("capacity split not applied workload={} error={}", w, e.toString());
      }
    }
    for (Pod p : pods) {
      if (gated(p) && !claimed.contains(p.getMetadata().getUid()) && !decided.containsKey(p.getMetadata().getUid())) {
        unclaimed(p);
      }
    }
  }

  private void decide(SplitWorkload w, List<Pod> own, Map<String, String> capacityOfNode, List<CapacitySplit.Pool> pools, Instant now,
      BooleanSupplier stopping) {
    CapacitySplit.Minimum minimum;
    try {
      minimum = CapacitySplit.Minimum.parse(w.minimum());
    } catch (IllegalArgumentException e) {
      long gated = own.stream().filter(CapacitySplitter::gated).count();
      warn(w, "CapacitySplitInvalid", e.getMessage() + "; its " + gated + " gated pod(s) stay gated until the annotation is fixed");
      return;
    }
    if (!w.gated()) {
      warn(w, "CapacitySplitNotGated", CapacitySplit.ANNOTATION + " is set but the pod template has no scheduling gate "
          + CapacitySplit.GATE + " (spec.template.spec.schedulingGates): new pods are not decided, the split is not kept");
      return;
    }
    boolean offered = CapacitySplit.onDemandOffered(w.nodeSelector(), pools);
    Map<String, Pod> byName = new HashMap<>();
    List<CapacitySplit.Pod> views = new ArrayList<>();
    for (Pod p : own) {
      byName.put(p.getMetadata().getName(), p);
      views.add(view(p, capacityOfNode));
    }
    CapacitySplit split = CapacitySplit.decide(minimum, w.replicas(), views, offered);
    if (!offered && split.belowMinimum()) {
      warn(w, "CapacitySplitUnsatisfiable", CapacitySplit.ANNOTATION + " " + minimum + ": no NodePool offers on-demand capacity to "
          + "pods with nodeSelector " + w.nodeSelector() + "; pods are released without the on-demand pin (" + split.detail() + ")");
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
    String key = w.kind() + "/" + w.namespace() + "/" + w.name();
    Instant last = lastEviction.get(key);
    if (last != null && last.isAfter(now.minus(EVICTION_INTERVAL))) {
      return;
    }
    lastEviction.put(key, now);
    String node = pod.getSpec().getNodeName();
    try {
      var outcome = evictor.evictPod(pod);
      log.info("capacity split rebalancing workload={} evicted pod={} node={} outcome={} {}", w, pod.getMetadata().getName(), node, outcome,
          split.detail());
      String count = split.detail().split(";", 2)[0];
      writes.recordEvent(w, "Normal", "CapacitySplitRebalanced", "evicted pod " + pod.getMetadata().getName() + " from node " + node
          + " so its replacement is decided again: " + count);
    } catch (PdbBlockedException e) {
      log.info("capacity split rebalancing workload={} pod={} held by PodDisruptionBudget: {}", w, pod.getMetadata().getName(), e.getMessage());
    }
  }

  /** A pod with the gate that no annotated workload selects: left gated, said once per window. */
  private void unclaimed(Pod p) {
    try {
      podEvents.recordPodEvent(new PodEvent(p.getMetadata().getNamespace(), p.getMetadata().getName(), p.getMetadata().getUid(), "Warning",
          "CapacitySplitUndecided", "scheduling gate " + CapacitySplit.GATE + " is Farrier's, but no Deployment or StatefulSet annotated "
              + CapacitySplit.ANNOTATION + " selects this pod: it stays gated"), EVENT_WINDOW);
    } catch (RuntimeException e) {
      log.warn("capacity split event not recorded pod={}/{} error={}", p.getMetadata().getNamespace(), p.getMetadata().getName(), e.toString());
    }
  }

  private void warn(SplitWorkload w, String reason, String message) {
    String key = w.uid() + "\n" + reason + "\n" + message;
    Instant now = clock.instant();
    if (warned.recent(key, now)) {
      return;
    }
    log.warn("capacity split workload={} reason={} {}", w, reason, message);
    try {
      writes.recordEvent(w, "Warning", reason, message);
      warned.recorded(key, now);
    } catch (RuntimeException e) {
      log.warn("capacity split event not recorded workload={} error={}", w, e.toString());
    }
  }

  /** The pod as the decision sees it, with this worker's own recent decision in place of a cache that lags it. */
  private CapacitySplit.Pod view(Pod p, Map<String, String> capacityOfNode) {
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
    long created = p.getMetadata().getCreationTimestamp() == null ? 0 : Instant.parse(p.getMetadata().getCreationTimestamp()).toEpochMilli();
    return new CapacitySplit.Pod(p.getMetadata().getName(), created, gated, pinned, capacity, p.getMetadata().getDeletionTimestamp() != null,
        doNotDisrupt);
  }

  static boolean gated(Pod p) {
    var gates = p.getSpec().getSchedulingGates();
    return gates != null && gates.stream().anyMatch(g -> CapacitySplit.GATE.equals(g.getName()));
  }

  private static String phase(Pod p) {
    return p.getStatus() == null ? null : p.getStatus().getPhase();
  }

  private static CapacitySplit.Pool pool(NodePool p) {
    var template = p.getSpec() == null ? null : p.getSpec().template();
    if (template == null) {
      return new CapacitySplit.Pool(p.getMetadata().getName(), Map.of(), List.of());
    }
    Map<String, String> labels = template.metadataOrEmpty().labelsOrEmpty();
    var requirements = template.spec() == null ? List.<dev.farrier.model.Requirement>of()
        : template.spec().requirementsOrEmpty().stream().map(RequirementWithMinValues::toRequirement).toList();
    return new CapacitySplit.Pool(p.getMetadata().getName(), Objects.requireNonNullElse(labels, Map.of()), requirements);
  }
}

package dev.farrier.activities.provisioning;

import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.nodeclass.NodeClassLaunches;
import dev.farrier.activities.views.NamespaceSelectors;
import dev.farrier.activities.views.PodViews;
import dev.farrier.activities.views.ResourceQuantities;
import dev.farrier.model.PlannedPods;
import dev.farrier.model.Resources;
import dev.farrier.model.Taint;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.ExistingNodeView;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodePoolView;
import dev.farrier.planner.PodSpecView;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads what the provisioning planner needs beyond pods and pools: existing nodes and in-flight NodeClaims (with
 * their pods) and the in-flight claims' share of NodePool limits (each node class's kubelet settings:
 * {@link NodeClassLaunches#kubelet}).
 */
public final class ProvisioningSnapshots {
  private ProvisioningSnapshots() {}

  /**
   * How long after its claim is Initialized a node still holds room for the pods its claim was planned for. Within it,
   * those pods are held back from later batches as long as the node has room left for them ({@link PromisedPods#held});
   * the kube-scheduler binds them over the next seconds (several on a loaded control plane). Until they are bound, a
   * later batch must not be given their room: that is how 341 pods were once planned onto a node that 517 unbound pods
   * were already promised to, and 263 of them stayed pending until a later batch.
   */
  public static final Duration PROMISE_WINDOW = Duration.ofSeconds(60);

  /**
   * Every Node (with its non-terminal pods) and every NodeClaim not yet registered to a Node and not being deleted.
   * A claim's requests ({@code spec.resources.requests}: its planned pods' and DaemonSets') are promised until the
   * claim has been Initialized for {@link #PROMISE_WINDOW}; the planner counts the larger of them and the bound pods.
   * Less the requests of its planned pods the kube-scheduler bound on another node ({@link #promised}). An Initialized
   * claim none of whose planned pods is still unbound ({@code unboundUids}) promises nothing more: they all run, here or
   * elsewhere, or are gone. That is how a replacement lets go of the room of the pods it was launched for once the drain
   * evicted them: the pods their controllers create instead are new pods, and the room held for the old ones would send
   * them to a node launched again for them, left empty when the kube-scheduler puts them on the replacement.
   */
  public static List<ExistingNodeView> existingNodes(List<Node> nodes, List<Pod> boundPods, List<Pod> unboundPods,
      List<NodeClaim> claims, Map<String, List<InstanceTypeView>> typesByPool, Map<String, KubeletSettings> kubeletByPool,
      NamespaceSelectors namespaces, CsiVolumes csi, Instant now) {
    Set<String> unboundUids = PendingPods.uids(unboundPods);
    Map<String, List<PodSpecView>> podsByNode = new HashMap<>();
    Map<String, BoundPod> boundByUid = new HashMap<>();
    for (Pod p : boundPods) {
      if (!PodViews.terminal(p) && p.getMetadata().getDeletionTimestamp() == null) {
        PodSpecView view = PodViews.of(p, namespaces, List.of()).withCsiVolumes(csi.of(p));
        podsByNode.computeIfAbsent(p.getSpec().getNodeName(), k -> new ArrayList<>()).add(view);
        if (p.getMetadata().getUid() != null) {
          boundByUid.put(p.getMetadata().getUid(), new BoundPod(p.getSpec().getNodeName(), view.requestsAsOnePod()));
        }
      }
    }
    // A pod bound since the unbound pods were read is in both lists: it is its node's, not nominated anywhere.
    Map<String, Pod> unboundByUid = new HashMap<>();
    for (Pod p : unboundPods) {
      String uid = p.getMetadata().getUid();
      if (uid != null && !boundByUid.containsKey(uid) && p.getMetadata().getDeletionTimestamp() == null && !PodViews.terminal(p)) {
        unboundByUid.put(uid, p);
      }
    }
    Map<String, NodeClaim> claimByNode = new HashMap<>();
    List<ExistingNodeView> out = new ArrayList<>();
    for (NodeClaim c : claims) {
      String nodeName = c.getStatus() == null ? null : c.getStatus().nodeName();
      if (nodeName != null && !nodeName.isEmpty()) {
        claimByNode.put(nodeName, c);
      } else if (c.getMetadata().getDeletionTimestamp() == null) {
        out.add(inFlight(c, typesByPool, kubeletByPool, promised(c, boundByUid), nominated(c, unboundByUid, namespaces, csi)));
      }
    }
    for (Node n : nodes) {
      String name = n.getMetadata().getName();
      NodeClaim claim = claimByNode.get(name);
      List<PodSpecView> pods = podsByNode.getOrDefault(name, List.of());
      boolean initialized = claim == null || initialized(claim);
      boolean holds = claim != null && holdsPromise(claim, now) && waitsFor(claim, unboundUids);
      Resources promised = holds ? promised(claim, boundByUid) : Resources.ZERO;
      List<PodSpecView> nominated = holds ? nominated(claim, unboundByUid, namespaces, csi) : List.of();
      List<Taint> taints = n.getSpec() == null || n.getSpec().getTaints() == null ? List.of()
          : n.getSpec().getTaints().stream().map(t -> new Taint(t.getKey(), t.getValue() == null ? "" : t.getValue(), t.getEffect())).toList();
      boolean disrupted = taints.stream().anyMatch(t -> WellKnown.DISRUPTED_TAINT_KEY.equals(t.key()));
      boolean accepts = !Boolean.TRUE.equals(n.getSpec() == null ? null : n.getSpec().getUnschedulable())
          && n.getMetadata().getDeletionTimestamp() == null && !disrupted
          && (claim == null || claim.getMetadata().getDeletionTimestamp() == null);
      Map<String, String> labels = n.getMetadata().getLabels() == null ? Map.of() : n.getMetadata().getLabels();
      Resources allocatable = n.getStatus() == null ? Resources.ZERO : ResourceQuantities.fromQuantities(n.getStatus().getAllocatable());
      out.add(new ExistingNodeView(name, labels.get(WellKnown.NODEPOOL_LABEL), labels, taints, allocatable, pods, promised,
          initialized, accepts, nominated, csi.limits(name)));
    }
    return out;
  }

  /**
   * The pods the claim was planned for ({@link WellKnown#PLANNED_PODS_ANNOTATION}) that are still unbound: the next
   * batch counts them where the claim is (topology, host ports), as the kube-scheduler will once it binds them there.
   */
  private static List<PodSpecView> nominated(NodeClaim claim, Map<String, Pod> unboundByUid, NamespaceSelectors namespaces,
      CsiVolumes csi) {
    List<PodSpecView> out = new ArrayList<>();
    for (String uid : PlannedPods.uids(claim.getMetadata().getAnnotations())) {
      Pod pod = unboundByUid.get(uid);
      if (pod != null) {
        out.add(PodViews.of(pod, namespaces, List.of()).withCsiVolumes(csi.of(pod)));
      }
    }
    return out;
  }

  /** Whether one of the pods the claim was planned for is still unbound (a claim that names none holds its room). */
  private static boolean waitsFor(NodeClaim claim, Set<String> unboundUids) {
    List<String> planned = PlannedPods.uids(claim.getMetadata().getAnnotations());
    return planned.isEmpty() || planned.stream().anyMatch(unboundUids::contains);
  }

  static boolean initialized(NodeClaim claim) {
    return claim.getStatus() != null && Conditions.isTrue(claim.getStatus().conditionsOrEmpty(), NodeClaimStatus.INITIALIZED);
  }

  /**
   * Whether the claim still holds room for what it was created for: it is launching, or it was Initialized less than
   * {@link #PROMISE_WINDOW} ago (its pods may not be bound yet).
   */
  static boolean holdsPromise(NodeClaim claim, Instant now) {
    return !initialized(claim) || initializedWithin(claim, now, PROMISE_WINDOW);
  }

  /** Whether the claim's Initialized condition turned True less than {@code window} before {@code now}. */
  public static boolean initializedWithin(NodeClaim claim, Instant now, Duration window) {
    return Conditions.find(claim.getStatus() == null ? List.of() : claim.getStatus().conditionsOrEmpty(), NodeClaimStatus.INITIALIZED)
        .filter(c -> c.isTrue() && c.lastTransitionTime() != null)
        .map(c -> {
          try {
            return Instant.parse(c.lastTransitionTime()).plus(window).isAfter(now);
          } catch (DateTimeParseException e) {
            return true; // an unreadable time: keep the promise rather than give its room away
          }
        })
        .orElse(false);
  }

  /**
   * A claim without a Node: its labels are what its requirements pin, its size that of the instance type it launched
   * as (the label the launch sets) or, before launch, of the smallest type it lists, so pods planned onto it always
   * fit whatever it becomes.
   */
  private static ExistingNodeView inFlight(NodeClaim c, Map<String, List<InstanceTypeView>> typesByPool,
      Map<String, KubeletSettings> kubeletByPool, Resources promised, List<PodSpecView> nominated) {
    Map<String, String> labels = new TreeMap<>(c.getMetadata().getLabels() == null ? Map.of() : c.getMetadata().getLabels());
    c.getSpec().requirementsOrEmpty().stream()
        .filter(r -> "In".equals(r.operator()) && r.values() != null && r.values().size() == 1)
        .forEach(r -> labels.putIfAbsent(r.key(), r.values().getFirst()));
    labels.put(WellKnown.HOSTNAME_LABEL, c.getMetadata().getName());
    String pool = labels.get(WellKnown.NODEPOOL_LABEL);
    Resources allocatable;
    if (c.getStatus() != null && c.getStatus().allocatable() != null && !c.getStatus().allocatable().isEmpty()) {
      allocatable = ResourceQuantities.fromQuantities(c.getStatus().allocatable());
    } else {
      KubeletSettings kubelet = kubeletByPool.getOrDefault(pool, KubeletSettings.DEFAULTS);
      allocatable = null;
      String launchedAs = c.getMetadata().getLabels() == null ? null : c.getMetadata().getLabels().get(WellKnown.INSTANCE_TYPE_LABEL);
      List<InstanceTypeView> candidates = listedTypes(c, typesByPool.getOrDefault(pool, List.of()));
      List<InstanceTypeView> launched = candidates.stream().filter(t -> t.name().equals(launchedAs)).toList();
      for (InstanceTypeView t : launched.isEmpty() ? candidates : launched) {
        Resources a = t.allocatable(kubelet);
        allocatable = allocatable == null ? a : componentMin(allocatable, a);
      }
      allocatable = allocatable == null ? Resources.ZERO : allocatable;
    }
    List<Taint> taints = c.getSpec().taintsOrEmpty().stream()
        .map(t -> new Taint(t.getKey(), t.getValue() == null ? "" : t.getValue(), t.getEffect())).toList();
    return new ExistingNodeView(c.getMetadata().getName(), pool, labels, taints, allocatable, List.of(), promised, false, true,
        nominated, Map.of());
  }

  /** A pod bound to a node: where, and its requests as one pod. */
  private record BoundPod(String node, Resources requests) {}

  /**
   * The room a claim holds: its requests less those of its planned pods ({@link WellKnown#PLANNED_PODS_ANNOTATION}) that the
   * kube-scheduler bound on another node. The scheduler fills each new node with the pending pods it picks, so by the
   * time a claim comes up some of the pods planned for it may run elsewhere (on a node planned for others, which is
   * then full); their room on this claim is free for the next batch rather than a reason for another node.
   */
  private static Resources promised(NodeClaim claim, Map<String, BoundPod> boundByUid) {
    Resources promised = requests(claim);
    String nodeName = claim.getStatus() == null ? null : claim.getStatus().nodeName();
    for (String uid : PlannedPods.uids(claim.getMetadata().getAnnotations())) {
      BoundPod bound = boundByUid.get(uid);
      if (bound != null && !bound.node().equals(nodeName)) {
        promised = promised.minus(bound.requests());
      }
    }
    return atLeastZero(promised);
  }

  private static Resources atLeastZero(Resources r) {
    Map<String, Long> ext = new TreeMap<>();
    r.extended().forEach((k, v) -> ext.put(k, Math.max(0, v)));
    return new Resources(Math.max(0, r.milliCpu()), Math.max(0, r.memoryBytes()), Math.max(0, r.ephemeralStorageBytes()),
        Math.max(0, r.pods()), ext);
  }

  /**
   * The pool's usage with the claims that have no capacity in their status yet (not launched) counted at the largest
   * capacity they list, so a launch in progress can never let the batch exceed the limit.
   */
  static NodePoolView withInFlightUsage(NodePoolView pool, List<NodeClaim> claims, List<InstanceTypeView> types) {
    Resources extra = Resources.ZERO;
    for (NodeClaim c : claims) {
      Map<String, String> labels = c.getMetadata().getLabels() == null ? Map.of() : c.getMetadata().getLabels();
      boolean hasCapacity = c.getStatus() != null && c.getStatus().capacity() != null && !c.getStatus().capacity().isEmpty();
      if (!pool.name().equals(labels.get(WellKnown.NODEPOOL_LABEL)) || hasCapacity) {
        continue;
      }
      Resources largest = Resources.ZERO;
      for (InstanceTypeView t : listedTypes(c, types)) {
        largest = componentMax(largest, t.capacity());
      }
      extra = extra.plus(largest);
    }
    if (extra.equals(Resources.ZERO)) {
      return pool;
    }
    return pool.withUsage(pool.usage().plus(extra));
  }

  private static List<InstanceTypeView> listedTypes(NodeClaim c, List<InstanceTypeView> types) {
    Set<String> listed = c.getSpec().requirementsOrEmpty().stream()
        .filter(r -> WellKnown.INSTANCE_TYPE_LABEL.equals(r.key()) && "In".equals(r.operator()) && r.values() != null)
        .flatMap(r -> r.values().stream()).collect(java.util.stream.Collectors.toSet());
    return types.stream().filter(t -> listed.contains(t.name())).toList();
  }

  private static Resources requests(NodeClaim c) {
    return c == null || c.getSpec().resources() == null ? Resources.ZERO : ResourceQuantities.fromQuantities(c.getSpec().resources().requests());
  }


  private static Resources componentMin(Resources a, Resources b) {
    Map<String, Long> ext = new TreeMap<>();
    a.extended().forEach((k, v) -> ext.put(k, Math.min(v, b.extended().getOrDefault(k, 0L))));
    return new Resources(Math.min(a.milliCpu(), b.milliCpu()), Math.min(a.memoryBytes(), b.memoryBytes()),
        Math.min(a.ephemeralStorageBytes(), b.ephemeralStorageBytes()), Math.min(a.pods(), b.pods()), ext);
  }

  private static Resources componentMax(Resources a, Resources b) {
    Map<String, Long> ext = new TreeMap<>(a.extended());
    b.extended().forEach((k, v) -> ext.merge(k, v, Math::max));
    return new Resources(Math.max(a.milliCpu(), b.milliCpu()), Math.max(a.memoryBytes(), b.memoryBytes()),
        Math.max(a.ephemeralStorageBytes(), b.ephemeralStorageBytes()), Math.max(a.pods(), b.pods()), ext);
  }
}

package dev.farrier.activities.provisioning;

import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.views.NamespaceSelectors;
import dev.farrier.activities.views.PodViews;
import dev.farrier.planner.ExistingNodeView;
import dev.farrier.planner.PodSpecView;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pending pods a planning round may still need a node for: those the provisioner plans (not a DaemonSet's or a
 * mirror pod), less those a NodeClaim already holds room for ({@link PromisedPods}) or the kube-scheduler has bound.
 */
public final class PendingPods {
  private static final Logger log = LoggerFactory.getLogger(PendingPods.class);

  private PendingPods() {}

  /**
   * The pods the kube-scheduler marked Unschedulable, as the provisioning planner sees them, less those a claim holds
   * room for ({@link PromisedPods}): the ones that may still need a new node. A pod Farrier cannot read is left out.
   */
  public static List<PodSpecView> withoutRoom(ClusterReader reader, List<NodeClaim> claims, List<ExistingNodeView> existing,
      NamespaceSelectors namespaces, CsiVolumes csi, Instant now) {
    VolumeTopology volumes = new VolumeTopology(reader);
    List<PodSpecView> pending = new ArrayList<>();
    for (Pod pod : reader.listPendingPods()) {
      if (pod.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      try {
        addIfProvisionable(pending, pod, namespaces, volumes, csi);
      } catch (RuntimeException e) {
        log.warn("pending pod left out of the consolidation round pod={}/{}: {}", pod.getMetadata().getNamespace(),
            pod.getMetadata().getName(), e.toString());
      }
    }
    if (!pending.isEmpty()) {
      leaveToScheduler(pending, PromisedPods.held(claims, byUid(pending), rooms(existing), now));
    }
    return pending;
  }

  /**
   * Adds the pod's view to {@code pending}, unless it is a DaemonSet's or a mirror pod: each is tied to one node (a
   * DaemonSet pod by its node affinity's {@code matchFields}, which the planner reads as an empty term), so no new node
   * is ever theirs, and Farrier neither plans them nor records a FailedScheduling on them (whose reason, an empty term,
   * would mislead), as Karpenter's provisioner leaves them out. Each new node's DaemonSet pods are counted by the
   * planner instead.
   */
  static void addIfProvisionable(List<PodSpecView> pending, Pod pod, NamespaceSelectors namespaces, VolumeTopology volumes,
      CsiVolumes csi) {
    var view = PodViews.of(pod, namespaces, volumes.of(pod)).withCsiVolumes(csi.of(pod));
    if (view.reschedulable()) {
      pending.add(view);
    }
  }

  /** Takes the {@code held} pods out of {@code pending}; returns how many. */
  static int leaveToScheduler(List<PodSpecView> pending, Set<String> held) {
    int before = pending.size();
    pending.removeIf(p -> held.contains(p.pod().uid()));
    return before - pending.size();
  }

  /** The UIDs of the {@code pending} pods (by UID) that {@code bound} holds: one pass over the bound pods, no set of them. */
  static Set<String> boundAmong(List<Pod> bound, Map<String, PodSpecView> pending) {
    Set<String> uids = new HashSet<>();
    for (Pod pod : bound) {
      if (pending.containsKey(pod.getMetadata().getUid())) {
        uids.add(pod.getMetadata().getUid());
      }
    }
    return uids;
  }

  /** The UIDs of these pods. */
  public static Set<String> uids(List<Pod> pods) {
    Set<String> uids = new HashSet<>();
    pods.forEach(p -> uids.add(p.getMetadata().getUid()));
    return uids;
  }

  static Map<String, PodSpecView> byUid(List<PodSpecView> pods) {
    Map<String, PodSpecView> out = new HashMap<>();
    pods.forEach(p -> out.put(p.pod().uid(), p));
    return out;
  }

  /** The room the kube-scheduler sees on each registered node, by name (a fresh one each time it is asked). */
  static Function<String, NodeRoom> rooms(List<ExistingNodeView> existing) {
    Map<String, ExistingNodeView> nodes = new HashMap<>();
    existing.stream().filter(ExistingNodeView::initialized).forEach(n -> nodes.put(n.name(), n));
    return name -> nodes.containsKey(name) ? NodeRoom.of(nodes.get(name)) : null;
  }
}

package dev.farrier.activities;

import dev.farrier.activities.kube.Cluster;
import dev.farrier.activities.kube.ClusterEvent;
import dev.farrier.activities.kube.EvictionOutcome;
import dev.farrier.activities.kube.ObjectNotFoundException;
import dev.farrier.activities.kube.PdbBlockedException;
import dev.farrier.workflows.activities.DrainRequest;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.EventRequest;
import dev.farrier.workflows.activities.HeldPod;
import dev.farrier.workflows.activities.NodeActivities;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.model.WellKnown;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.temporal.activity.Activity;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The node-level steps of a disruption against the {@link Cluster}; each converges the node to a state. */
public class NodeActivitiesImpl implements NodeActivities {
  private static final Logger log = LoggerFactory.getLogger(NodeActivitiesImpl.class);
  static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";
  /** A drain pass stops starting evictions after this (its StartToClose is 2 minutes); the workflow runs the next. */
  static final Duration PASS_BUDGET = Duration.ofSeconds(60);

  private final Cluster cluster;
  private final Clock clock;

  public NodeActivitiesImpl(Cluster cluster) {
    this(cluster, Clock.systemUTC());
  }

  NodeActivitiesImpl(Cluster cluster, Clock clock) {
    this.cluster = cluster;
    this.clock = clock;
  }

  /** A node already gone needs no taint: the replacement goes on to terminate its instance and finalize its claim. */
  @Override
  public void taintDisrupted(NodeRef request) {
    try {
      cluster.addNodeTaint(request.nodeName(), WellKnown.DISRUPTED_TAINT);
    } catch (ObjectNotFoundException e) {
      log.info("node already gone, not tainted node={} nodeclaim={}", request.nodeName(), request.nodeClaim());
    }
  }

  @Override
  public void untaintDisrupted(NodeRef request) {
    cluster.removeNodeTaint(request.nodeName(), WellKnown.DISRUPTED_TAINT);
  }

  /** A node already gone needs no cordon (see {@link #taintDisrupted}). */
  @Override
  public Boolean cordon(NodeRef request) {
    try {
      return cluster.cordonNode(request.nodeName());
    } catch (ObjectNotFoundException e) {
      log.info("node already gone, not cordoned node={} nodeclaim={}", request.nodeName(), request.nodeClaim());
      return false;
    }
  }

  @Override
  public void uncordon(NodeRef request) {
    cluster.uncordonNode(request.nodeName());
  }

  /**
   * One pass over the node's pods: evicts each evictable pod once and reports the ones it leaves, with why. Idempotent:
   * evicting a pod that is gone (or replaced by a namesake) is a no-op thanks to the UID precondition, and pods
   * already terminating are only waited for. Each call is bounded (see {@code PodEvictions}) and the pass heartbeats
   * per pod; a pass that has run for {@link #PASS_BUDGET} stops starting evictions and reports what is left, so
   * a node with many refused pods never outlives the activity's timeout.
   */
  @Override
  public DrainStatus drainStep(DrainRequest request) {
    List<String> evicted = new ArrayList<>();
    List<HeldPod> held = new ArrayList<>();
    var deadline = clock.instant().plus(PASS_BUDGET);
    for (Pod pod : drainable(cluster.listPodsOnNode(request.nodeName()))) {
      var key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
      Activity.getExecutionContext().heartbeat(key);
      if (clock.instant().isAfter(deadline)) {
        log.info("drain pass out of time, the rest next pass node={} nodeclaim={}", request.nodeName(), request.nodeClaim());
        break;
      }
      try {
        if (request.bypassPdb()) {
          // terminationGracePeriod expired or an operator forced the drain: that outranks PDBs and do-not-disrupt, and
          // a pod stuck terminating (its kubelet gone) is removed without waiting for it.
          boolean stuck = pod.getMetadata().getDeletionTimestamp() != null;
          if (cluster.deletePod(pod, stuck ? 0L : null)) {
            evicted.add(key);
            log.info("pod deleted past its PDB node={} nodeclaim={} pod={} forced={}", request.nodeName(), request.nodeClaim(), key, stuck);
          }
          continue;
        }
        if (pod.getMetadata().getDeletionTimestamp() != null) {
          continue;
        }
        if ("true".equals(annotations(pod).get(WellKnown.DO_NOT_DISRUPT_ANNOTATION))) {
          held.add(new HeldPod(key, HeldPod.Cause.DO_NOT_DISRUPT, null));
          continue;
        }
        if (request.holdUnowned() && !hasController(pod)) {
          held.add(new HeldPod(key, HeldPod.Cause.NO_CONTROLLER, null));
          continue;
        }
        if (cluster.evictPod(pod) == EvictionOutcome.EVICTED) {
          evicted.add(key);
          log.info("pod evicted node={} nodeclaim={} pod={}", request.nodeName(), request.nodeClaim(), key);
        }
      } catch (PdbBlockedException e) {
        held.add(new HeldPod(key, HeldPod.Cause.PDB, e.pdbName() == null ? "(unknown)" : e.pdbKey()));
        log.info("eviction blocked node={} nodeclaim={} pod={} pdb={}", request.nodeName(), request.nodeClaim(), key, e.pdbKey());
      } catch (KubernetesClientException e) {
        // One pod the API refuses (e.g. covered by two PDBs: HTTP 500) must not stop the pass for the others.
        held.add(new HeldPod(key, HeldPod.Cause.EVICTION_FAILED, e.getMessage()));
        log.warn("eviction failed node={} nodeclaim={} pod={}: {}", request.nodeName(), request.nodeClaim(), key, e.getMessage());
      }
    }
    var remaining = drainable(cluster.listPodsOnNode(request.nodeName())).stream()
        .map(p -> p.getMetadata().getNamespace() + "/" + p.getMetadata().getName()).toList();
    return DrainStatus.of(evicted, remaining, held);
  }

  /** A controller (ReplicaSet, StatefulSet, Job, ...) owns the pod and will recreate it elsewhere. */
  static boolean hasController(Pod pod) {
    return pod.getMetadata().getOwnerReferences() != null
        && pod.getMetadata().getOwnerReferences().stream().anyMatch(o -> Boolean.TRUE.equals(o.getController()));
  }

  /** Pods that must leave before the node can go: not DaemonSet pods, not mirror pods, not finished ones. */
  static List<Pod> drainable(List<Pod> pods) {
    return pods.stream()
        .filter(p -> !"Succeeded".equals(phase(p)) && !"Failed".equals(phase(p)))
        .filter(p -> !annotations(p).containsKey(MIRROR_ANNOTATION))
        .filter(p -> p.getMetadata().getOwnerReferences() == null || p.getMetadata().getOwnerReferences().stream()
            .noneMatch(o -> Boolean.TRUE.equals(o.getController()) && "DaemonSet".equals(o.getKind())))
        .toList();
  }

  private static String phase(Pod pod) {
    return pod.getStatus() == null ? null : pod.getStatus().getPhase();
  }

  private static Map<String, String> annotations(Pod pod) {
    return pod.getMetadata().getAnnotations() == null ? Map.of() : pod.getMetadata().getAnnotations();
  }

  @Override
  public void markAborted(NodeRef request) {
    try {
      cluster.patchNodeMetadata(request.nodeName(), Map.of(), Map.of(WellKnown.FARRIER_ABORTED_ANNOTATION, clock.instant().toString()));
    } catch (ObjectNotFoundException e) {
      log.info("node gone before it could be marked aborted node={} nodeclaim={}", request.nodeName(), request.nodeClaim());
    }
  }

  @Override
  public void recordEvent(EventRequest request) {
    try {
      cluster.recordEvent(new ClusterEvent(request.kind(), request.name(), request.type(), request.reason(), request.message()));
    } catch (RuntimeException e) {
      log.warn("event not recorded kind={} name={} reason={}: {}", request.kind(), request.name(), request.reason(), e.toString());
    }
  }
}

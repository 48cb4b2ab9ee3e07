package dev.farrier.activities.drain;

import dev.farrier.activities.events.StepEvents;
import dev.farrier.activities.kube.EventSink;
import dev.farrier.activities.kube.EvictionOutcome;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.activities.kube.NodeWriter;
import dev.farrier.activities.kube.ObjectNotFoundException;
import dev.farrier.activities.kube.PdbBlockedException;
import dev.farrier.activities.kube.PodEvictor;
import dev.farrier.activities.kube.WorkloadSurges;
import dev.farrier.activities.metrics.NodeClaimMetrics;
import dev.farrier.workflows.EventReasons;
import dev.farrier.workflows.activities.DrainRequest;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.EventRequest;
import dev.farrier.workflows.activities.HeldPod;
import dev.farrier.workflows.activities.NodeActivities;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.activities.RecordEventsRequest;
import dev.farrier.workflows.activities.SurgeOutcome;
import dev.farrier.workflows.activities.SurgeAnswers;
import dev.farrier.workflows.activities.SurgePass;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.MeterRegistry;
import io.temporal.activity.Activity;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node-level steps of a disruption, through the ports they need (a node writer, a pod evictor, an event sink); each
 * converges the node to a state, then records the Events its request names ({@link StepEvents}). What the drain may do
 * to each pod is {@link DrainRules}' decision.
 */
public class NodeActivitiesImpl implements NodeActivities {
  private static final Logger log = LoggerFactory.getLogger(NodeActivitiesImpl.class);
  /** A drain pass stops starting evictions after this (its StartToClose is 2 minutes); the workflow runs the next. */
  static final Duration PASS_BUDGET = Duration.ofSeconds(60);

  private final NodeWriter nodes;
  private final PodEvictor pods;
  private final Clock clock;
  private final StepEvents events;
  private final LeavingPods leaving;
  private final Surges surges;

  public <C extends NodeWriter & PodEvictor & EventSink & NodeClaimStore & WorkloadSurges> NodeActivitiesImpl(C cluster,
      MeterRegistry meters) {
    this(cluster, cluster, cluster, Clock.systemUTC(), cluster, meters, LeavingPods.WITHIN, cluster);
  }

  /** @param settleWithin how long a drain pass waits at most for the pods on their way out ({@link LeavingPods}) */
  NodeActivitiesImpl(NodeWriter nodes, PodEvictor pods, EventSink events, Clock clock, NodeClaimStore claims, MeterRegistry meters,
      Duration settleWithin) {
    this(nodes, pods, events, clock, claims, meters, settleWithin, null);
  }

  /** @param workloads the surges' reads and writes; null: no pod is ever a surge candidate */
  NodeActivitiesImpl(NodeWriter nodes, PodEvictor pods, EventSink events, Clock clock, NodeClaimStore claims, MeterRegistry meters,
      Duration settleWithin, WorkloadSurges workloads) {
    this.nodes = nodes;
    this.pods = pods;
    this.clock = clock;
    this.events = new StepEvents(events, claims, new NodeClaimMetrics(meters));
    this.leaving = new LeavingPods(pods, clock, settleWithin);
    this.surges = workloads == null ? null
        : new Surges(workloads, clock, () -> Activity.getExecutionContext().heartbeat("surge"));
  }

  /**
   * A node already gone needs no taint: the replacement goes on to terminate its instance and finalize its claim.
   * Idempotent: a taint already there is kept.
   */
  @Override
  public void taintDisrupted(NodeRef request) {
    try {
      nodes.addNodeTaint(request.nodeName(), WellKnown.DISRUPTED_TAINT);
    } catch (ObjectNotFoundException e) {
      log.atInfo().setMessage("node already gone, not tainted").addKeyValue("node", request.nodeName())
          .addKeyValue("nodeclaim", request.nodeClaim()).log();
    }
    events.record(request.events());
  }

  /** Idempotent: a taint already gone (or a node already gone) is done. */
  @Override
  public void untaintDisrupted(NodeRef request) {
    nodes.removeNodeTaint(request.nodeName(), WellKnown.DISRUPTED_TAINT);
    events.record(request.events());
  }

  /** A node already gone needs no cordon (see {@link #taintDisrupted}). Idempotent: a cordoned node stays so. */
  @Override
  public Boolean cordon(NodeRef request) {
    boolean cordonedNow;
    try {
      cordonedNow = nodes.cordonNode(request.nodeName());
    } catch (ObjectNotFoundException e) {
      log.atInfo().setMessage("node already gone, not cordoned").addKeyValue("node", request.nodeName())
          .addKeyValue("nodeclaim", request.nodeClaim()).log();
      cordonedNow = false;
    }
    events.record(request.events());
    return cordonedNow;
  }

  /** Idempotent: a schedulable (or gone) node is done. */
  @Override
  public void uncordon(NodeRef request) {
    nodes.uncordonNode(request.nodeName());
    events.record(request.events());
  }

  /**
   * One pass over the node's pods: evicts each evictable pod of the first drain group with pods left (every group when
   * forced, {@link DrainOrder}) once and reports the ones it leaves, with why, and the later groups' pods it defers. Idempotent:
   * evicting a pod that is gone (or replaced by a namesake) is a no-op thanks to the UID precondition, and pods
   * already terminating are only waited for. Each call is bounded (see {@code PodEvictions}) and the pass heartbeats
   * per pod; a pass that has run for {@link #PASS_BUDGET} stops starting evictions and reports what is left, so
   * a node with many refused pods never outlives the activity's timeout. Before it reports, it waits a few seconds at
   * most for the pods on their way out to be gone ({@link LeavingPods}). With {@link DrainRequest#recordEvictions()} it
   * records an Evicted Event per pod it evicted or released, heartbeating per Event.
   */
  @Override
  public DrainStatus drainStep(DrainRequest request) {
    List<String> evicted = new ArrayList<>();
    Set<String> evictedUids = new HashSet<>();
    List<HeldPod> held = new ArrayList<>();
    List<String> toSurge = new ArrayList<>();
    Predicate<Pod> surgeable = surges == null ? pod -> false : surges.candidates(request.nodePool());
    var deadline = clock.instant().plus(PASS_BUDGET);
    DrainOrder.Pass pass = DrainOrder.pass(pods.listPodsOnNode(request.nodeName()), request);
    for (Pod pod : pass.now()) {
      DrainRules.Action action = DrainRules.action(pod, request);
      if (action == DrainRules.Action.IGNORE || action == DrainRules.Action.WAIT) {
        continue;
      }
      var key = key(pod);
      Activity.getExecutionContext().heartbeat(key);
      if (clock.instant().isAfter(deadline)) {
        log.atInfo().setMessage("drain pass out of time, the rest next pass").addKeyValue("node", request.nodeName())
            .addKeyValue("nodeclaim", request.nodeClaim()).log();
        break;
      }
      try {
        switch (action) {
          case HOLD_DO_NOT_DISRUPT -> held.add(new HeldPod(key, HeldPod.Cause.DO_NOT_DISRUPT, null));
          case HOLD_NO_CONTROLLER -> held.add(new HeldPod(key, HeldPod.Cause.NO_CONTROLLER, null));
          case DELETE, DELETE_NOW -> {
            // terminationGracePeriod expired or an operator forced the drain: that outranks PDBs and do-not-disrupt, and
            // a pod stuck terminating (its kubelet gone) is removed without waiting for it.
            if (pods.deletePod(pod, action == DrainRules.Action.DELETE_NOW ? 0L : null)) {
              evicted.add(key);
              evictedUids.add(pod.getMetadata().getUid());
              log.atInfo().setMessage("pod deleted past its PDB").addKeyValue("node", request.nodeName())
                  .addKeyValue("nodeclaim", request.nodeClaim()).addKeyValue("pod", key)
                  .addKeyValue("forced", action == DrainRules.Action.DELETE_NOW).log();
            }
          }
          case EVICT -> {
            if (pods.evictPod(pod) == EvictionOutcome.EVICTED) {
              evicted.add(key);
              evictedUids.add(pod.getMetadata().getUid());
              log.atInfo().setMessage("pod evicted").addKeyValue("node", request.nodeName())
                  .addKeyValue("nodeclaim", request.nodeClaim()).addKeyValue("pod", key).log();
            }
          }
          default -> throw new IllegalStateException("unhandled drain action " + action);
        }
      } catch (PdbBlockedException e) {
        held.add(new HeldPod(key, HeldPod.Cause.PDB, e.pdbName() == null ? "(unknown)" : e.pdbKey()));
        log.atInfo().setMessage("eviction blocked").addKeyValue("node", request.nodeName())
            .addKeyValue("nodeclaim", request.nodeClaim()).addKeyValue("pod", key).addKeyValue("pdb", e.pdbKey()).log();
        if (surgeCandidate(pod, surgeable)) {
          toSurge.add(key);
        }
      } catch (KubernetesClientException e) {
        // One pod the API refuses (e.g. covered by two PDBs: HTTP 500) must not stop the pass for the others.
        held.add(new HeldPod(key, HeldPod.Cause.EVICTION_FAILED, e.getMessage()));
        log.atWarn().setMessage("eviction failed").addKeyValue("node", request.nodeName())
            .addKeyValue("nodeclaim", request.nodeClaim()).addKeyValue("pod", key)
            .addKeyValue("error", e.getMessage()).log();
      }
    }
    if (!pass.deferred().isEmpty()) {
      log.atInfo().setMessage("later drain groups wait").addKeyValue("node", request.nodeName())
          .addKeyValue("nodeclaim", request.nodeClaim()).addKeyValue("group", pass.group())
          .addKeyValue("deferred", pass.deferred().size()).log();
    }
    if (request.recordEvictions()) {
      recordEvictions(request, evicted);
    }
    var remaining = leaving.mustLeaveOnceGone(request, evictedUids).stream().map(NodeActivitiesImpl::key).toList();
    return DrainStatus.of(evicted, remaining, held, pass.group(), pass.deferred().stream().map(NodeActivitiesImpl::key).toList(),
        toSurge);
  }

  /**
   * A pod a PDB refused is a surge candidate when its workload or NodePool opted in ({@link Surges#candidates}); a read
   * that fails proves nothing and leaves the pod to the PDB this pass, as without surges.
   */
  private boolean surgeCandidate(Pod pod, Predicate<Pod> surgeable) {
    try {
      return surgeable.test(pod);
    } catch (KubernetesClientException e) {
      log.atWarn().setMessage("surge opt-in unknown, left to the PDB this pass").addKeyValue("pod", key(pod))
          .addKeyValue("error", e.getMessage()).log();
      return false;
    }
  }

  /** The pass's PodDisruptionBudget-held pods opted in to surges get their Deployments restarted ({@link Surges}). */
  @Override
  public SurgeAnswers surge(SurgePass pass) {
    if (surges == null) {
      return new SurgeAnswers(pass.pods().stream().map(r -> new SurgeOutcome(r.pod(), null, SurgeOutcome.Result.NOT_APPLICABLE,
          "surges are not wired in this worker")).toList());
    }
    return new SurgeAnswers(surges.surge(pass.pods()));
  }

  private void recordEvictions(DrainRequest request, List<String> evicted) {
    for (String pod : evicted) {
      Activity.getExecutionContext().heartbeat("recording the eviction of " + pod);
      events.record(new EventRequest(request.cluster(), EventReasons.KIND_NODE, request.nodeName(), EventReasons.NORMAL,
          EventReasons.EVICTED, EventReasons.evicted(pod, request.instanceGone())));
    }
  }

  private static String key(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }

  /** Idempotent: the annotation is merged in (a repeat writes a later time, which the planner reads the same way). */
  @Override
  public void markAborted(NodeRef request) {
    try {
      nodes.patchNodeMetadata(request.nodeName(), Map.of(), Map.of(WellKnown.FARRIER_ABORTED_ANNOTATION, clock.instant().toString()));
    } catch (ObjectNotFoundException e) {
      log.atInfo().setMessage("node gone before it could be marked aborted").addKeyValue("node", request.nodeName())
          .addKeyValue("nodeclaim", request.nodeClaim()).log();
    }
    events.record(request.events());
  }

  @Override
  public void recordEvents(RecordEventsRequest request) {
    events.record(request.events());
  }
}

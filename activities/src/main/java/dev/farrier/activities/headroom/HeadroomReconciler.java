package dev.farrier.activities.headroom;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolStatus;
import dev.farrier.activities.kube.ClusterEvent;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.EventSink;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.activities.kube.PlaceholderWorkloads;
import dev.farrier.activities.kube.StatusWriter;
import dev.farrier.activities.provisioning.NodePoolViews;
import dev.farrier.activities.views.ResourceQuantities;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.Headroom;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps each NodePool's headroom ({@code farrier.dev/headroom}) as its placeholder Deployment says
 * ({@link HeadroomPlaceholders}): the replicas the annotation asks for, capped by what the pool's limits leave
 * ({@link Headroom#replicas}); no annotation (or the pool gone) deletes the Deployment, and its nodes, emptied, are
 * consolidated as any other. Each pool's {@value #CONDITION} condition says what runs, and an Event marks each change
 * of it: capped by the limits, or refused (then no placeholders, never an exception out of the pass; other NodePools go
 * on): a value it cannot read, a static NodePool, a {@value HeadroomPlaceholders#PRIORITY_CLASS} PriorityClass that is
 * not Farrier's negative, never-preempting one, or a Deployment of the placeholders' name that is not Farrier's. Only
 * Deployments labelled and named as Farrier's are ever written or deleted. Each pass derives everything from the cluster
 * (the informer cache, plus a live list of the placeholder Deployments and a get of the PriorityClass) and writes only
 * what differs; the one thing carried between passes is on the Deployment: the replicas granted under the current
 * annotation and limits ({@link Headroom#replicas}).
 */
public final class HeadroomReconciler {
  private static final Logger log = LoggerFactory.getLogger(HeadroomReconciler.class);
  public static final String CONDITION = "HeadroomReady";
  public static final String INVALID = "InvalidHeadroom";
  public static final String CAPPED = "CappedByLimits";
  static final String NOT_REQUESTED = "NotRequested";
  public static final String STATIC = "StaticNodePool";
  public static final String PRIORITY_CLASS_CONFLICT = "PriorityClassConflict";
  public static final String NAME_TAKEN = "PlaceholderNameTaken";
  /** On the Deployment: a digest of what Farrier applied, so a pass that would change nothing writes nothing. */
  static final String APPLIED_ANNOTATION = "farrier.dev/headroom-applied";
  /** On the Deployment: the annotation and the pool's limits its replicas were decided under. */
  static final String BASIS_ANNOTATION = "farrier.dev/headroom-basis";
  /** On the Deployment: the replicas Farrier gave it under that basis, kept while the basis holds ({@link Headroom#replicas}). */
  static final String GRANTED_ANNOTATION = "farrier.dev/headroom-granted";

  private final ClusterReader reader;
  private final NodeClaimStore claims;
  private final StatusWriter status;
  private final EventSink events;
  private final PlaceholderWorkloads workloads;
  private final String namespace;
  private final String image;
  private final Clock clock;

  public <C extends ClusterReader & NodeClaimStore & StatusWriter & EventSink> HeadroomReconciler(C cluster, PlaceholderWorkloads workloads,
      String namespace, String image, Clock clock) {
    this.reader = cluster;
    this.claims = cluster;
    this.status = cluster;
    this.events = cluster;
    this.workloads = workloads;
    this.namespace = namespace;
    this.image = image;
    this.clock = clock;
  }

  public void reconcile() {
    Map<String, Deployment> existing = new HashMap<>();
    // Only Farrier's own: labelled, named after their pool and managed by Farrier; anything else is never touched.
    workloads.listPlaceholderDeployments(namespace, WellKnown.HEADROOM_NODEPOOL_LABEL).stream().filter(HeadroomPlaceholders::isFarriers)
        .forEach(d -> existing.put(d.getMetadata().getLabels().get(WellKnown.HEADROOM_NODEPOOL_LABEL), d));
    List<NodePool> pools = reader.listNodePools();
    // Checked each pass, and only when a pool asks for headroom: a PriorityClass deleted or replaced since would leave the
    // placeholders unable to start, or let them displace real pods.
    String priorityClassProblem = pools.stream().anyMatch(p -> annotation(p) != null)
        ? HeadroomPlaceholders.priorityClassProblem(workloads.ensurePriorityClass(HeadroomPlaceholders.priorityClass()))
        : null;
    var allClaims = claims.listNodeClaims();
    var nodes = reader.listNodes();
    var bound = reader.listBoundPods();
    for (NodePool pool : pools) {
      String name = pool.getMetadata().getName();
      try {
        Deployment current = existing.remove(name);
        reconcile(pool, current, priorityClassProblem, allClaims, nodes, bound);
      } catch (RuntimeException e) {
        // One NodePool whose headroom cannot be written never stops the others'; the next pass tries again.
        log.warn("headroom not reconciled nodepool={}: {}", name, e.toString());
      }
    }
    // Deployments of NodePools that are gone (Kubernetes' garbage collector deletes them too: the pool owns them).
    existing.values().forEach(d -> delete(d.getMetadata().getLabels().get(WellKnown.HEADROOM_NODEPOOL_LABEL), d));
  }

  private static String annotation(NodePool pool) {
    return pool.getMetadata().getAnnotations() == null ? null : pool.getMetadata().getAnnotations().get(WellKnown.HEADROOM_ANNOTATION);
  }

  private void reconcile(NodePool pool, Deployment current, String priorityClassProblem, List<dev.farrier.activities.crd.NodeClaim> allClaims,
      List<Node> nodes, List<Pod> bound) {
    String name = pool.getMetadata().getName();
    String value = annotation(pool);
    if (value == null || pool.getMetadata().getDeletionTimestamp() != null) {
      if (current != null) {
        delete(name, current);
      }
      Condition before = condition(pool);
      if (before != null && !NOT_REQUESTED.equals(before.reason())) {
        write(pool, Condition.of(CONDITION, Condition.TRUE, NOT_REQUESTED, "no " + WellKnown.HEADROOM_ANNOTATION + " annotation: no placeholders",
            clock.instant()));
      }
      return;
    }
    Headroom headroom;
    try {
      headroom = HeadroomAnnotation.parse(value);
    } catch (HeadroomAnnotation.Invalid e) {
      refuse(pool, current, INVALID, e.getMessage());
      return;
    }
    if (pool.getSpec() != null && pool.getSpec().replicas() != null) {
      refuse(pool, current, STATIC, WellKnown.HEADROOM_ANNOTATION + " on a static NodePool (spec.replicas " + pool.getSpec().replicas()
          + "): it launches no node for pending placeholders");
      return;
    }
    if (priorityClassProblem != null) {
      refuse(pool, current, PRIORITY_CLASS_CONFLICT, priorityClassProblem);
      return;
    }
    String deploymentName = HeadroomPlaceholders.name(name);
    if (current == null && workloads.getDeployment(namespace, deploymentName) != null) {
      refuse(pool, null, NAME_TAKEN, "Deployment " + namespace + "/" + deploymentName + " exists and is not Farrier's (no "
          + WellKnown.HEADROOM_NODEPOOL_LABEL + " and " + HeadroomPlaceholders.MANAGED_BY + "=" + HeadroomPlaceholders.FARRIER
          + " labels): left as it is");
      return;
    }
    var view = NodePoolViews.of(pool, allClaims);
    long allocatable = nodes.stream()
        .filter(n -> name.equals(labels(n.getMetadata().getLabels()).get(WellKnown.NODEPOOL_LABEL)))
        .filter(n -> n.getMetadata().getDeletionTimestamp() == null && n.getStatus() != null)
        .mapToLong(n -> ResourceQuantities.fromQuantities(n.getStatus().getAllocatable()).milliCpu()).sum();
    int running = (int) bound.stream()
        .filter(p -> namespace.equals(p.getMetadata().getNamespace()))
        .filter(p -> name.equals(labels(p.getMetadata().getLabels()).get(WellKnown.HEADROOM_NODEPOOL_LABEL)))
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null).count();
    String basis = value + "; limits cpu=" + view.limits().milliCpu() + "m memory=" + view.limits().memoryBytes();
    var replicas = headroom.replicas(allocatable, view.limits(), view.usage(), running, granted(current, basis));
    var desired = HeadroomPlaceholders.deployment(pool, namespace, image, headroom, replicas.replicas());
    String digest = digest(desired);
    desired.getMetadata().setAnnotations(Map.of(APPLIED_ANNOTATION, digest, BASIS_ANNOTATION, basis,
        GRANTED_ANNOTATION, Integer.toString(replicas.replicas())));
    if (current == null || current.getMetadata().getAnnotations() == null
        || !digest.equals(current.getMetadata().getAnnotations().get(APPLIED_ANNOTATION))
        || !basis.equals(current.getMetadata().getAnnotations().get(BASIS_ANNOTATION))
        // A kubectl scale or edit of the replicas is put back.
        || current.getSpec() == null || !Objects.equals(current.getSpec().getReplicas(), replicas.replicas())) {
      workloads.applyDeployment(desired);
      log.info("headroom applied nodepool={} deployment={}/{} replicas={} wanted={} running={}", name, namespace,
          desired.getMetadata().getName(), replicas.replicas(), replicas.wanted(), running);
    }
    String size = headroom.podSize();
    // Placeholders waiting while the pool is at a limit, with no node of the pool on its way, wait for good: the
    // provisioner launches nothing past the limit.
    boolean launching = allClaims.stream().anyMatch(c -> name.equals(labels(c.getMetadata().getLabels()).get(WellKnown.NODEPOOL_LABEL))
        && c.getMetadata().getDeletionTimestamp() == null
        && (c.getStatus() == null || !Conditions.isTrue(c.getStatus().conditions(), NodeClaimStatus.INITIALIZED)));
    String reached = running < replicas.replicas() && !launching ? Headroom.reachedLimit(view.limits(), view.usage()) : null;
    Condition now;
    if (replicas.capped()) {
      now = Condition.of(CONDITION, Condition.FALSE, CAPPED, replicas.replicas() + " of the " + replicas.wanted() + " placeholders (" + size
          + ") asked for fit within " + replicas.cappedBy(), clock.instant());
    } else if (reached != null) {
      now = Condition.of(CONDITION, Condition.FALSE, CAPPED, running + " of the " + replicas.replicas() + " placeholders (" + size
          + ") run: the pool has reached " + reached + "; the others wait Pending", clock.instant());
    } else {
      now = Condition.of(CONDITION, Condition.TRUE, CONDITION, replicas.replicas() + " placeholders (" + size + ") in Deployment "
          + namespace + "/" + desired.getMetadata().getName(), clock.instant());
    }
    write(pool, now);
  }

  /**
   * The replicas Farrier gave the Deployment when the annotation and the pool's limits were as they are now ({@code basis}):
   * what it applied, not what a kubectl scale left; 0 when they were not (or there is none): a change of either is decided
   * afresh.
   */
  private static int granted(Deployment current, String basis) {
    Map<String, String> annotations = current == null ? null : current.getMetadata().getAnnotations();
    if (annotations == null || !basis.equals(annotations.get(BASIS_ANNOTATION))) {
      return 0;
    }
    try {
      return Integer.parseInt(annotations.getOrDefault(GRANTED_ANNOTATION, "0"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private void refuse(NodePool pool, Deployment current, String reason, String problem) {
    if (current != null) {
      delete(pool.getMetadata().getName(), current);
    }
    write(pool, Condition.of(CONDITION, Condition.FALSE, reason, problem + "; no placeholders run", clock.instant()));
  }

  private void delete(String pool, Deployment deployment) {
    workloads.deleteDeployment(namespace, deployment.getMetadata().getName());
    log.info("headroom removed nodepool={} deployment={}/{}", pool, namespace, deployment.getMetadata().getName());
  }

  /** Writes the condition when its status, reason or message differ, with an Event when its status or reason do. */
  private void write(NodePool pool, Condition now) {
    Condition before = condition(pool);
    if (before != null && Objects.equals(before.status(), now.status()) && Objects.equals(before.reason(), now.reason())
        && Objects.equals(before.message(), now.message())) {
      return;
    }
    String name = pool.getMetadata().getName();
    status.patchNodePoolStatus(name, new NodePoolStatus(null, null, List.of(now), null));
    if (before != null && Objects.equals(before.status(), now.status()) && Objects.equals(before.reason(), now.reason())) {
      return;
    }
    log.info("headroom condition nodepool={} status={} reason={} message=\"{}\"", name, now.status(), now.reason(), now.message());
    try {
      events.recordEvent(new ClusterEvent(NodePool.KIND, name, now.isTrue() ? ClusterEvent.NORMAL : ClusterEvent.WARNING, now.reason(),
          now.message()));
    } catch (RuntimeException e) {
      log.warn("event not recorded kind=NodePool name={}: {}", name, e.toString());
    }
  }

  private static Condition condition(NodePool pool) {
    return pool.getStatus() == null ? null : Conditions.find(pool.getStatus().conditions(), CONDITION).orElse(null);
  }

  private static Map<String, String> labels(Map<String, String> labels) {
    return labels == null ? Map.of() : labels;
  }

  private static String digest(Deployment desired) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(Serialization.asJson(desired).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}

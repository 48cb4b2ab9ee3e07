package dev.farrier.activities.rollout;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.crd.AmiSelectorTerm;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.activities.kube.ObjectNotFoundException;
import dev.farrier.activities.kube.RolloutWriter;
import dev.farrier.activities.nodeclass.NodeClassImages;
import dev.farrier.activities.temporal.Polling;
import dev.farrier.activities.views.PodViews;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.activities.ClaimRolloutRequest;
import dev.farrier.workflows.activities.ClosedReplacement;
import dev.farrier.workflows.activities.FollowRequest;
import dev.farrier.workflows.activities.HealthObservation.NodeHealth;
import dev.farrier.workflows.activities.HealthObservation.PodHealth;
import dev.farrier.workflows.activities.HealthObservation;
import dev.farrier.workflows.activities.HealthRequest;
import dev.farrier.workflows.activities.OffTargetNode;
import dev.farrier.workflows.activities.TargetCheckRequest;
import dev.farrier.workflows.activities.ReleaseRolloutRequest;
import dev.farrier.workflows.activities.RolloutActivities;
import dev.farrier.workflows.activities.RolloutClaim;
import dev.farrier.workflows.activities.SwitchImagesRequest;
import dev.farrier.model.WorkloadRef;
import dev.farrier.model.WellKnown;
import dev.farrier.model.ReconcilerSettings;
import dev.farrier.model.AmiTerm;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.temporal.activity.Activity;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link RolloutActivities} on the Kubernetes ports and the cloud: the checks a rollout must pass before it touches
 * anything, NodePool ownership with compare-and-set, the EC2NodeClass's images, and what the gate looks at.
 */
public final class RolloutActivitiesImpl implements RolloutActivities {
  private static final Logger log = LoggerFactory.getLogger(RolloutActivitiesImpl.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ClusterReader reader;
  private final NodeClaimStore claims;
  private final RolloutWriter writer;
  private final RolloutTargets targets;
  private final Predicate<String> workflowRunning;
  private final ReconcilerSettings settings;
  private final Function<String, Optional<ClosedReplacement>> closedReplacement;

  /** How often {@link #awaitClosed} asks again whether a followed replacement has closed. */
  static final Duration FOLLOW_INTERVAL = Duration.ofSeconds(1);

  /**
   * @param workflowRunning whether a workflow id runs now (a NodePool whose owner has ended is free again); must answer
   *                        true when it cannot tell
   * @param settings        the worker's launch and drain settings, handed to the rollout's replacements
   * @param closedReplacement how the replacement of a NodeClaim ({@code disrupt/<nodeclaim>}) ended, once it has; empty
   *                        while it runs; throws when Temporal does not answer in time
   */
  public RolloutActivitiesImpl(ClusterReader reader, NodeClaimStore claims, RolloutWriter writer, CloudProvider cloud,
      Predicate<String> workflowRunning, ReconcilerSettings settings,
      Function<String, Optional<ClosedReplacement>> closedReplacement) {
    this.reader = reader;
    this.claims = claims;
    this.writer = writer;
    this.targets = new RolloutTargets(reader, cloud);
    this.workflowRunning = workflowRunning;
    this.settings = settings;
    this.closedReplacement = closedReplacement;
  }

  @Override
  public RolloutClaim claim(ClaimRolloutRequest request) {
    RolloutTargets.Target found = targets.resolve(request);
    List<String> names = found.nodePoolNames();
    List<String> taken = new ArrayList<>();
    try {
      for (String pool : names) {
        take(pool, request.workflowId());
        taken.add(pool);
      }
    } catch (RuntimeException e) {
      // All or none: a NodePool left owned by a rollout that never started would have its drift held for ever.
      release(new ReleaseRolloutRequest(request.cluster(), request.workflowId(), taken, null));
      throw e;
    }
    log.info("rollout took its nodepools rollout={} nodepools={} nodeclass={} from={} to={}", request.workflowId(), names,
        found.nodeClassName(), found.previousImages(), found.targetImages());
    return new RolloutClaim(names, found.nodeClassName(), found.previous(), found.previousFamily(), found.previousImages(),
        found.target(), found.targetFamily(), found.targetImages(), settings);
  }

  /** Takes one NodePool for the rollout, or refuses naming the running rollout that owns it. */
  private void take(String pool, String workflowId) {
    NodePool current = reader.getNodePool(pool).orElseThrow(() -> invalid("NodePool " + pool + " not found"));
    String owner = current.getMetadata().getAnnotations() == null ? null
        : current.getMetadata().getAnnotations().get(WellKnown.ROLLOUT_ANNOTATION);
    RolloutTargets.refuseIfTakenByAnother(pool, owner, workflowId, workflowRunning);
    String holder = writer.compareAndSetNodePoolAnnotation(pool, WellKnown.ROLLOUT_ANNOTATION, owner, workflowId);
    if (!workflowId.equals(holder)) {
      throw ApplicationFailure.newNonRetryableFailure("NodePool " + pool + " was just taken by " + holder,
          FailureTypes.ROLLOUT_CONFLICT);
    }
  }

  @Override
  public void switchImages(SwitchImagesRequest request) {
    Map<String, String> annotations = new HashMap<>();
    if (request.forward()) {
      EC2NodeClass current = reader.getNodeClass(request.nodeClass())
          .orElseThrow(() -> invalid("EC2NodeClass " + request.nodeClass() + " not found"));
      String kept = current.getMetadata().getAnnotations() == null ? null
          : current.getMetadata().getAnnotations().get(WellKnown.PREVIOUS_AMI_TERMS_ANNOTATION);
      if (kept == null) {
        try {
          annotations.put(WellKnown.PREVIOUS_AMI_TERMS_ANNOTATION, JSON.writeValueAsString(current.getSpec().amiSelectorTermsOrEmpty()));
        } catch (JsonProcessingException e) {
          throw new IllegalStateException("cannot write the previous amiSelectorTerms as JSON", e);
        }
      }
      annotations.put(WellKnown.ROLLOUT_ANNOTATION, request.workflowId());
    } else {
      annotations.put(WellKnown.PREVIOUS_AMI_TERMS_ANNOTATION, null);
      annotations.put(WellKnown.ROLLOUT_ANNOTATION, null);
    }
    writer.setNodeClassImages(request.nodeClass(), request.terms().stream().map(RolloutActivitiesImpl::crdTerm).toList(),
        request.amiFamily(), annotations);
    log.info("rollout switched images rollout={} nodeclass={} forward={} terms={}", request.workflowId(), request.nodeClass(),
        request.forward(), RolloutTargets.describe(request.terms()));
  }

  @Override
  public void awaitImages(SwitchImagesRequest request) {
    Set<String> expected = new TreeSet<>(request.expectedImages());
    Polling.until(() -> reader.getNodeClass(request.nodeClass())
            .map(c -> new TreeSet<>(NodeClassImages.fromStatus(c).values().stream().flatMap(List::stream).toList()))
            .filter(expected::equals),
        () -> "waiting for EC2NodeClass " + request.nodeClass() + " to resolve " + expected);
  }

  @Override
  public List<ClosedReplacement> awaitClosed(FollowRequest request) {
    long deadline = System.nanoTime() + Duration.ofSeconds(request.waitSeconds()).toNanos();
    var context = Activity.getExecutionContext();
    return Polling.until(() -> {
      List<ClosedReplacement> closed = new ArrayList<>();
      for (String claim : request.nodeClaims()) {
        closedReplacement.apply(claim).ifPresent(closed::add);
        context.heartbeat(claim); // each answer is bounded below the heartbeat timeout; many are not
      }
      return closed.isEmpty() && System.nanoTime() < deadline ? Optional.empty() : Optional.of(closed);
    }, () -> "following " + request.nodeClaims().size() + " replacement(s)", FOLLOW_INTERVAL);
  }

  @Override
  public HealthObservation observeHealth(HealthRequest request) {
    List<NodeHealth> nodes = request.nodes().stream().map(name -> reader.getNode(name)
        .map(n -> new NodeHealth(name, true, ready(n))).orElse(new NodeHealth(name, false, false))).toList();
    Set<WorkloadRef> workloads = new HashSet<>(request.workloads());
    Set<String> asked = new HashSet<>(request.nodes()); // a pending pod's node is null, which List.of refuses to look up
    List<PodHealth> pods = Stream.concat(reader.listBoundPods().stream(), reader.listPendingPods().stream())
        .filter(p -> !PodViews.terminal(p) && p.getMetadata().getDeletionTimestamp() == null)
        .map(p -> Workloads.of(p).filter(workloads::contains).map(w -> health(p, w)))
        .flatMap(Optional::stream).distinct()
        .filter(p -> !request.troubledElsewhereOnly() || asked.contains(p.node()) || p.restarts() > 0
            || p.waitingReason() != null)
        .toList();
    return new HealthObservation(nodes, pods);
  }

  @Override
  public List<OffTargetNode> offTarget(TargetCheckRequest request) {
    Set<String> target = Set.copyOf(request.targetImages());
    List<OffTargetNode> off = new ArrayList<>();
    for (String pool : request.nodePools()) {
      for (NodeClaim claim : claims.listNodeClaimsOfNodePool(pool)) {
        String image = claim.getStatus() == null ? null : claim.getStatus().imageID();
        // Being deleted: leaving the fleet. No image yet: not launched, so it launches on what the class resolves to now,
        // the target (a launch records the image it resolved at once).
        if (claim.getMetadata().getDeletionTimestamp() != null || image == null || target.contains(image)) {
          continue;
        }
        String nodeName = claim.getStatus() == null ? null : claim.getStatus().nodeName();
        Optional<Node> node = nodeName == null ? Optional.empty() : reader.getNode(nodeName);
        off.add(new OffTargetNode(claim.getMetadata().getName(), nodeName, image, whyOffTarget(claim, node)));
      }
    }
    off.sort(java.util.Comparator.comparing(OffTargetNode::nodeClaim));
    return off;
  }

  /** What the cluster shows holding a node off the target: the marks a person or a workload set, or its state. */
  private static String whyOffTarget(NodeClaim claim, Optional<Node> node) {
    Map<String, String> annotations = new HashMap<>();
    Optional.ofNullable(claim.getMetadata().getAnnotations()).ifPresent(annotations::putAll);
    node.map(n -> n.getMetadata().getAnnotations()).ifPresent(annotations::putAll);
    boolean initialized = claim.getStatus() != null && Conditions.isTrue(claim.getStatus().conditionsOrEmpty(),
        NodeClaimStatus.INITIALIZED);
    if (annotations.containsKey(WellKnown.FARRIER_ABORTED_ANNOTATION)) {
      return "held by " + WellKnown.FARRIER_ABORTED_ANNOTATION + " (an operator aborted its replacement; remove the"
          + " annotation to let it be replaced)";
    }
    if ("true".equals(annotations.get(WellKnown.DO_NOT_DISRUPT_ANNOTATION))) {
      return "held by " + WellKnown.DO_NOT_DISRUPT_ANNOTATION;
    }
    if (!initialized) {
      return "not initialized yet";
    }
    return "nothing on the node or its NodeClaim holds it; its disrupt/" + claim.getMetadata().getName()
        + " workflow and the rollout's plans say why it was not replaced";
  }

  @Override
  public void release(ReleaseRolloutRequest request) {
    for (String pool : request.nodePools()) {
      try {
        writer.compareAndSetNodePoolAnnotation(pool, WellKnown.ROLLOUT_ANNOTATION, request.workflowId(), null);
      } catch (ObjectNotFoundException e) {
        log.info("nodepool gone before its rollout released it nodepool={} rollout={}", pool, request.workflowId());
      }
    }
    var nodeClass = request.nodeClass() == null ? Optional.<EC2NodeClass>empty() : reader.getNodeClass(request.nodeClass());
    String owner = nodeClass.map(c -> c.getMetadata().getAnnotations()).map(a -> a.get(WellKnown.ROLLOUT_ANNOTATION)).orElse(null);
    if (request.workflowId().equals(owner)) {
      Map<String, String> clear = new HashMap<>();
      clear.put(WellKnown.ROLLOUT_ANNOTATION, null);
      clear.put(WellKnown.PREVIOUS_AMI_TERMS_ANNOTATION, null);
      writer.patchNodeClassAnnotations(request.nodeClass(), clear);
    }
  }

  private static PodHealth health(Pod pod, WorkloadRef workload) {
    var status = pod.getStatus();
    List<ContainerStatus> containers = status == null || status.getContainerStatuses() == null ? List.of() : status.getContainerStatuses();
    int restarts = containers.stream().mapToInt(c -> c.getRestartCount() == null ? 0 : c.getRestartCount()).sum();
    String waiting = containers.stream().map(c -> c.getState() == null || c.getState().getWaiting() == null ? null
        : c.getState().getWaiting().getReason()).filter(Objects::nonNull).findFirst().orElse(null);
    boolean ready = status != null && status.getConditions() != null && status.getConditions().stream()
        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    return new PodHealth(pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName(), workload,
        pod.getSpec() == null ? null : pod.getSpec().getNodeName(), ready, restarts, waiting);
  }

  private static boolean ready(Node node) {
    return node.getStatus() != null && node.getStatus().getConditions() != null && node.getStatus().getConditions().stream()
        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static AmiSelectorTerm crdTerm(AmiTerm t) {
    return new AmiSelectorTerm(t.alias(), t.id(), t.name(), t.owner(), t.tags(), t.ssmParameter());
  }

  private static ApplicationFailure invalid(String message) {
    return RolloutTargets.invalid(message);
  }
}

package dev.farrier.activities.launch;

import dev.farrier.activities.cloud.Ownership;
import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.CapacityReservation;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.nodeclass.NodeClassReservations;
import dev.farrier.activities.cloud.LaunchRequest;
import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimResources;
import dev.farrier.activities.crd.NodeClaimSpec;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.crd.NodeClassReference;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolHash;
import dev.farrier.activities.crd.RequirementWithMinValues;
import dev.farrier.activities.events.StepEvents;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.activities.kube.NodeWriter;
import dev.farrier.activities.kube.StatusWriter;
import dev.farrier.activities.nodepool.RegistrationHealthWriter;
import dev.farrier.activities.kube.EventSink;
import dev.farrier.activities.kube.ObjectNotFoundException;
import dev.farrier.activities.metrics.NodeClaimMetrics;
import dev.farrier.activities.nodeclass.DriftFacts;
import dev.farrier.activities.nodeclass.NodeClassImages;
import dev.farrier.activities.nodeclass.NodeClassLaunches;
import dev.farrier.activities.temporal.Failures;
import dev.farrier.activities.temporal.Polling;
import dev.farrier.activities.views.ResourceQuantities;
import dev.farrier.workflows.EventReasons;
import dev.farrier.workflows.activities.AwaitNodeRequest;
import dev.farrier.workflows.activities.EventRequest;
import dev.farrier.workflows.activities.InstanceState;
import dev.farrier.workflows.activities.NodeClaimActivities;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.activities.RegistrationFailure;
import dev.farrier.workflows.activities.TerminateInstanceRequest;
import dev.farrier.model.LaunchedInstance;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.PlannedPods;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.Taint;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NodeClaim lifecycle against the {@link Cluster} and the {@link CloudProvider}; each step records the Events its
 * request names once it has done its work ({@link StepEvents}). The instance's termination is {@link InstanceTermination}'s.
 */
public class NodeClaimActivitiesImpl implements NodeClaimActivities {
  private static final Logger log = LoggerFactory.getLogger(NodeClaimActivitiesImpl.class);

  private final ClusterReader reader;
  private final NodeClaimStore claims;
  private final NodeWriter nodes;
  private final CloudProvider cloud;
  private final Clock clock;
  private final NodeClaimMetrics metrics;
  private final StepEvents events;
  private final InstanceTermination termination;
  private final RegistrationHealthWriter registrationHealth;

  public <C extends ClusterReader & NodeClaimStore & NodeWriter & EventSink & StatusWriter> NodeClaimActivitiesImpl(C cluster,
      CloudProvider cloud, MeterRegistry meters) {
    this(cluster, cloud, Clock.systemUTC(), meters);
  }

  <C extends ClusterReader & NodeClaimStore & NodeWriter & EventSink & StatusWriter> NodeClaimActivitiesImpl(C cluster,
      CloudProvider cloud, Clock clock, MeterRegistry meters) {
    this.reader = cluster;
    this.claims = cluster;
    this.nodes = cluster;
    this.cloud = cloud;
    this.clock = clock;
    this.metrics = new NodeClaimMetrics(meters);
    this.events = new StepEvents(cluster, cluster, metrics);
    this.termination = new InstanceTermination(cloud);
    this.registrationHealth = new RegistrationHealthWriter(cluster, clock);
  }

  /**
   * The claim's annotations: its NodePool template's ({@code spec.template.metadata.annotations}, as Karpenter puts them
   * on the claim and its node), its NodePool's hash, and the UIDs of the pods it is created for
   * ({@link WellKnown#PLANNED_PODS_ANNOTATION}), so a later batch leaves them to the scheduler while the claim's room is theirs.
   */
  private static Map<String, String> annotations(NodeClaimRequest request, Map<String, String> template) {
    Map<String, String> annotations = new LinkedHashMap<>(template);
    annotations.put(WellKnown.NODEPOOL_HASH_ANNOTATION, request.nodePoolHash());
    annotations.put(WellKnown.NODEPOOL_HASH_VERSION_ANNOTATION, NodePoolHash.VERSION);
    String promised = PlannedPods.format(request.pods());
    if (!promised.isEmpty()) {
      annotations.put(WellKnown.PLANNED_PODS_ANNOTATION, promised);
    }
    return annotations;
  }

  private static Map<String, String> templateAnnotations(NodePool pool) {
    return pool.getSpec() == null || pool.getSpec().template() == null ? Map.of()
        : pool.getSpec().template().metadataOrEmpty().annotationsOrEmpty();
  }

  /** Idempotent: the claim's name is deterministic, and an existing claim of that name is this request's. */
  @Override
  public void createNodeClaim(NodeClaimRequest request) {
    Map<String, String> labels = new LinkedHashMap<>(request.labels());
    labels.put(WellKnown.NODEPOOL_LABEL, request.nodePool());
    labels.put(WellKnown.NODECLASS_LABEL, request.nodeClassName());
    var pool = reader.getNodePool(request.nodePool());
    var meta = new ObjectMetaBuilder()
        .withName(request.name())
        .withLabels(labels)
        .withAnnotations(annotations(request, pool.map(NodeClaimActivitiesImpl::templateAnnotations).orElse(Map.of())))
        .withFinalizers(WellKnown.TERMINATION_FINALIZER);
    // Owned by its NodePool, as in Karpenter: deleting the pool deletes its claims (and so drains their nodes).
    pool.ifPresent(p -> meta.withOwnerReferences(new OwnerReferenceBuilder()
        .withApiVersion(NodePool.GROUP + "/" + NodePool.VERSION).withKind("NodePool")
        .withName(p.getMetadata().getName()).withUid(p.getMetadata().getUid()).withBlockOwnerDeletion(true).build()));
    var claim = new NodeClaim();
    claim.setMetadata(meta.build());
    claim.setSpec(new NodeClaimSpec(
        request.requirements().stream().map(RequirementWithMinValues::from).toList(),
        new NodeClaimResources(ResourceQuantities.toQuantities(request.requests())),
        toKube(request.taints()),
        toKube(request.startupTaints()),
        NodeClassReference.ec2NodeClass(request.nodeClassName()),
        request.expireAfter(),
        request.terminationGracePeriodSeconds() == null ? null : request.terminationGracePeriodSeconds() + "s"));
    // Read first: the object sent has no UID, so the stored one cannot tell whether this call created it. Two attempts
    // racing could both count it; only a timed-out attempt overlapping its retry does that.
    boolean existed = claims.getNodeClaim(request.name()).isPresent();
    if (!existed) {
      claims.createNodeClaimIfAbsent(claim);
    }
    log.atInfo().setMessage("nodeclaim created").addKeyValue("nodeclaim", request.name())
        .addKeyValue("nodepool", request.nodePool()).addKeyValue("instanceTypes", request.instanceTypes().size())
        .addKeyValue("requests", request.requests()).addKeyValue("existed", existed).log();
    if (!existed) {
      metrics.created(request.disruptionReason() == null ? NodeClaimMetrics.PROVISIONED : request.disruptionReason(), request.nodePool());
    }
  }

  private static List<io.fabric8.kubernetes.api.model.Taint> toKube(List<Taint> taints) {
    return taints.stream().map(t -> new TaintBuilder().withKey(t.key()).withValue(t.value()).withEffect(t.effect()).build()).toList();
  }

  private static List<Taint> fromKube(List<io.fabric8.kubernetes.api.model.Taint> taints) {
    return taints.stream().map(t -> new Taint(t.getKey(), t.getValue() == null ? "" : t.getValue(), t.getEffect())).toList();
  }

  /**
   * Idempotent: the cloud looks the claim's instance up by its tag before launching, and so does this method. Records
   * on the claim what drift compares later ({@link DriftFacts}: the instance type's labels, the EC2NodeClass hash, the
   * instance's subnet and security groups), from the class this launch used.
   */
  @Override
  public LaunchedInstance launchInstance(NodeClaimRef request) {
    NodeClaim claim;
    try {
      claim = claims.getNodeClaim(request.nodeClaim()).orElseThrow(() -> new ObjectNotFoundException("NodeClaim", request.nodeClaim()));
    } catch (ObjectNotFoundException e) {
      throw Failures.of(e);
    }
    var spec = claim.getSpec();
    var nodeClassName = spec.nodeClassRef().name();
    EC2NodeClass nodeClass = reader.getNodeClass(nodeClassName)
        .orElseThrow(() -> Failures.nodeClassNotReady("EC2NodeClass " + nodeClassName + " of NodeClaim " + request.nodeClaim() + " does not exist"));
    var launch = NodeClassLaunches.of(nodeClass);
    var images = NodeClassImages.resolve(cloud, nodeClass);
    if (images.isEmpty()) {
      throw Failures.nodeClassNotReady("amiSelectorTerms of EC2NodeClass " + nodeClassName + " resolve no image: "
          + NodeClassImages.terms(nodeClass));
    }
    var requirements = spec.requirementsOrEmpty().stream().map(RequirementWithMinValues::toRequirement).toList();
    var instanceTypes = values(requirements, WellKnown.INSTANCE_TYPE_LABEL);
    var capacityTypes = values(requirements, WellKnown.CAPACITY_TYPE_LABEL);
    Map<String, String> tags = new LinkedHashMap<>(nodeClass.getSpec().tagsOrEmpty());
    String nodePool = claim.getMetadata().getLabels().get(WellKnown.NODEPOOL_LABEL);
    tags.put("Name", nodePool + "/" + request.nodeClaim());
    tags.putAll(Ownership.launchTags(request.cluster(), nodePool, request.nodeClaim()));
    tags.put(WellKnown.TAG_NODECLASS, nodeClassName);
    Map<String, String> nodeLabels = new LinkedHashMap<>(claim.getMetadata().getLabels());
    singleValued(requirements).forEach(nodeLabels::putIfAbsent);
    List<Taint> nodeTaints = new ArrayList<>(fromKube(spec.taintsOrEmpty()));
    nodeTaints.addAll(fromKube(spec.startupTaintsOrEmpty()));
    List<CapacityReservation> reservations = NodeClassReservations.reservationsFor(cloud, nodeClass, values(requirements,
        WellKnown.CAPACITY_RESERVATION_ID_LABEL));
    Instance instance;
    try {
      instance = cloud.create(new LaunchRequest(request.cluster(), request.nodeClaim(), nodePool, nodeClassName, instanceTypes,
          capacityTypes.isEmpty() ? List.of(WellKnown.CAPACITY_ON_DEMAND) : capacityTypes,
          values(requirements, WellKnown.ZONE_LABEL), images, tags, nodeLabels, nodeTaints, launch, reservations));
    } catch (CloudProviderException e) {
      throw Failures.of(e);
    }
    var type = cloud.instanceTypes().stream().filter(t -> t.name().equals(instance.instanceType())).findFirst();
    var capacity = type.map(t -> ResourceQuantities.toQuantities(new Resources(t.vcpu() * 1000L, t.memoryMiB() * 1024 * 1024, 0,
        t.eniMaxPods(), t.extendedResources()))).orElse(null);
    // Recorded once, from the class this launch used, so that planning compares without asking the cloud (DriftFacts).
    Map<String, String> launchLabels = new LinkedHashMap<>(DriftFacts.launchLabels(instance, type, launch.subnets(), launch.amiFamily()));
    launchLabels.putAll(NodeClassReservations.of(instance, reservations));
    claims.patchNodeClaimMetadata(request.nodeClaim(), launchLabels,
        DriftFacts.launchAnnotations(nodeClass, instance));
    claims.patchNodeClaimStatus(request.nodeClaim(), new NodeClaimStatus(instance.providerId(), instance.imageId(), null, capacity, null,
        List.of(Condition.of(NodeClaimStatus.LAUNCHED, Condition.TRUE, "Launched", "instance " + instance.id(), clock.instant())), null));
    log.atInfo().setMessage("instance launched").addKeyValue("nodeclaim", request.nodeClaim())
        .addKeyValue("instance", instance.id()).addKeyValue("instanceType", instance.instanceType())
        .addKeyValue("zone", instance.zone()).addKeyValue("capacityType", instance.capacityType())
        .addKeyValue("image", instance.imageId()).log();
    var launched = new LaunchedInstance(request.nodeClaim(), instance.id(), instance.providerId(), instance.instanceType(),
        instance.zone(), instance.capacityType(), instance.imageId(), instance.pricePerHour());
    if (request.recordLaunched()) {
      events.record(new EventRequest(request.cluster(), EventReasons.KIND_NODE_CLAIM, request.nodeClaim(), EventReasons.NORMAL,
          EventReasons.LAUNCHED, EventReasons.launched(launched)));
    }
    return launched;
  }

  private static List<String> values(List<Requirement> requirements, String key) {
    return requirements.stream().filter(r -> r.key().equals(key) && r.operator().equals("In")).findFirst()
        .map(Requirement::values).orElse(List.of());
  }

  /** Requirements that pin a label to one value become node labels, as Karpenter does. */
  private static Map<String, String> singleValued(List<Requirement> requirements) {
    Map<String, String> labels = new LinkedHashMap<>();
    for (var r : requirements) {
      if (r.operator().equals("In") && r.values().size() == 1) {
        labels.put(r.key(), r.values().getFirst());
      }
    }
    return labels;
  }

  @Override
  public String awaitRegistered(AwaitNodeRequest request) {
    String nodeName = Polling.until(() -> reader.findNodeByProviderId(request.providerId()).map(n -> n.getMetadata().getName()),
        () -> "waiting for a Node with providerID " + request.providerId());
    events.record(request.events());
    return nodeName;
  }

  /** Idempotent: label merges, finalizer add and taint removal converge; the status patch is by condition type. */
  @Override
  public void registerNode(AwaitNodeRequest request) {
    var claim = claim(request.nodeClaim());
    var node = node(request.nodeName());
    Map<String, String> labels = new LinkedHashMap<>(claim.getMetadata().getLabels());
    labels.put(WellKnown.REGISTERED_LABEL, "true");
    boolean firstRegistration = node.getMetadata().getFinalizers() == null
        || !node.getMetadata().getFinalizers().contains(WellKnown.TERMINATION_FINALIZER);
    try {
      nodes.registerNode(request.nodeName(), labels, nodeAnnotations(claim), WellKnown.TERMINATION_FINALIZER, WellKnown.UNREGISTERED_TAINT);
      claims.patchNodeClaimStatus(request.nodeClaim(), new NodeClaimStatus(null, null, request.nodeName(),
          node.getStatus().getCapacity(), node.getStatus().getAllocatable(),
          List.of(Condition.of(NodeClaimStatus.REGISTERED, Condition.TRUE, "Registered", "node " + request.nodeName(), clock.instant())), null));
    } catch (ObjectNotFoundException e) {
      throw Failures.of(e);
    }
    if (firstRegistration) { // counted once: a retry finds the finalizer there
      metrics.nodeCreated(labels.get(WellKnown.NODEPOOL_LABEL), labels.get(WellKnown.ZONE_LABEL));
    }
    log.atInfo().setMessage("node registered").addKeyValue("nodeclaim", request.nodeClaim())
        .addKeyValue("node", request.nodeName()).log();
    registrationHealth.registered(claim.getMetadata().getLabels().get(WellKnown.NODEPOOL_LABEL), request.nodeClaim());
    events.record(request.events());
  }

  @Override
  public void recordRegistrationFailure(RegistrationFailure failure) {
    registrationHealth.failed(failure.nodePool(), failure.nodeClaim(), failure.launched(), failure.reason(), failure.message());
  }

  /**
   * What the node gets of its claim's annotations at registration, as Karpenter copies them: all of them (the NodePool
   * template's, the hash, the launch's drift facts) except the planned pods, which are the claim's own bookkeeping.
   */
  private static Map<String, String> nodeAnnotations(NodeClaim claim) {
    Map<String, String> annotations = new LinkedHashMap<>(claim.getMetadata().getAnnotations());
    annotations.remove(WellKnown.PLANNED_PODS_ANNOTATION);
    annotations.putIfAbsent(WellKnown.NODEPOOL_HASH_ANNOTATION, "");
    return annotations;
  }

  /**
   * Idempotent: waits until the node is Ready, without the unregistered and startup taints, and reports every device
   * its instance type promises ({@link InstanceType#extendedResources}: GPUs, Neuron devices; as Karpenter waits for
   * them, since a pod asking for one could not run before its device plugin registers it), then sets a label, the
   * conditions, and the claim's capacity as the node now reports it; a repeat sets the same values.
   */
  @Override
  public void awaitInitialized(AwaitNodeRequest request) {
    var claim = claim(request.nodeClaim());
    var startupTaints = claim.getSpec().startupTaintsOrEmpty();
    Set<String> devices = promisedDevices(claim);
    Node node = Polling.until(() -> reader.findNode(request.nodeName()).filter(n -> initialized(n, startupTaints, devices)),
        () -> "waiting for node " + request.nodeName() + " to be Ready without startup taints"
            + (devices.isEmpty() ? "" : " and with its devices " + devices));
    try {
      nodes.patchNodeMetadata(request.nodeName(), Map.of(WellKnown.INITIALIZED_LABEL, "true"), Map.of());
      var now = clock.instant();
      claims.patchNodeClaimStatus(request.nodeClaim(), new NodeClaimStatus(null, null, null, node.getStatus().getCapacity(),
          node.getStatus().getAllocatable(), List.of(
          Condition.of(NodeClaimStatus.INITIALIZED, Condition.TRUE, "Initialized", "node " + request.nodeName() + " is Ready", now),
          Condition.of(NodeClaimStatus.READY, Condition.TRUE, "Ready", "", now)), null));
    } catch (ObjectNotFoundException e) {
      throw Failures.of(e);
    }
    log.atInfo().setMessage("node initialized").addKeyValue("nodeclaim", request.nodeClaim())
        .addKeyValue("node", request.nodeName()).log();
    events.record(request.events());
  }

  static boolean initialized(Node node, List<io.fabric8.kubernetes.api.model.Taint> startupTaints, Set<String> devices) {
    boolean ready = node.getStatus() != null && node.getStatus().getConditions() != null
        && node.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    var taints = node.getSpec().getTaints() == null ? List.<io.fabric8.kubernetes.api.model.Taint>of() : node.getSpec().getTaints();
    boolean blocked = taints.stream().anyMatch(t -> t.getKey().equals(WellKnown.UNREGISTERED_TAINT_KEY)
        || startupTaints.stream().anyMatch(s -> s.getKey().equals(t.getKey()) && s.getEffect().equals(t.getEffect())));
    var allocatable = node.getStatus() == null || node.getStatus().getAllocatable() == null ? Map.<String, Quantity>of()
        : node.getStatus().getAllocatable();
    boolean devicesReported = devices.stream().allMatch(d -> allocatable.containsKey(d)
        && Quantity.getAmountInBytes(allocatable.get(d)).signum() > 0);
    return ready && !blocked && devicesReported;
  }

  /**
   * The devices the claim's node must report: those its instance type promises (none when its type is unknown to the
   * cloud) and {@link #requestedDevices}.
   */
  private Set<String> promisedDevices(NodeClaim claim) {
    String type = claim.getMetadata().getLabels() == null ? null : claim.getMetadata().getLabels().get(WellKnown.INSTANCE_TYPE_LABEL);
    Set<String> devices = new TreeSet<>(cloud.instanceTypes().stream().filter(t -> t.name().equals(type)).findFirst()
        .map(t -> t.extendedResources().keySet()).orElse(Set.of()));
    devices.addAll(requestedDevices(claim));
    return devices;
  }

  /**
   * The extended resources the claim requests (Karpenter's RequestedResourcesRegistered waits for every resource
   * requested): also one a NodeOverlay's {@code capacity} gave its type, which only the node's device plugin makes real.
   */
  static Set<String> requestedDevices(NodeClaim claim) {
    var resources = claim.getSpec() == null ? null : claim.getSpec().resources();
    if (resources == null || resources.requests() == null) {
      return Set.of();
    }
    return new TreeSet<>(ResourceQuantities.fromQuantities(resources.requests()).extended().entrySet().stream()
        .filter(e -> e.getValue() > 0).map(Map.Entry::getKey).toList());
  }

  /**
   * Idempotent: the cloud treats shutting-down, terminated and unknown instances as done; ownership is checked
   * first. Without an instance id (a launch whose response was lost) the claim's instance is found by its tag.
   */
  @Override
  public InstanceState terminateInstance(TerminateInstanceRequest request) {
    InstanceState terminating = termination.terminate(request);
    events.record(request.events());
    return terminating;
  }

  @Override
  public InstanceState awaitInstanceTerminated(TerminateInstanceRequest request) {
    InstanceState gone = termination.awaitTerminated(request);
    events.record(request.events());
    return gone;
  }

  /**
   * Idempotent as {@link #terminateInstance}: a retry terminates an instance already shutting down or gone as a no-op,
   * then waits again. The terminate is one cloud call before the first heartbeat; one slower than the heartbeat timeout
   * fails the attempt, and the retry finds the instance shutting down.
   */
  @Override
  public InstanceState terminateInstanceAndWait(TerminateInstanceRequest request) {
    InstanceState terminating = termination.terminate(request);
    InstanceState gone = termination.awaitTerminated(
        new TerminateInstanceRequest(request.cluster(), request.nodeClaim(), terminating.instanceId()));
    events.record(request.events());
    return gone;
  }

  @Override
  public InstanceState instanceState(TerminateInstanceRequest request) {
    return termination.state(request);
  }

  /** Idempotent: deletion of a missing node is done, and the finalizer removal converges. */
  @Override
  public void deleteNode(NodeRef request) {
    deleteNodeOf(request);
    events.record(request.events());
  }

  private void deleteNodeOf(NodeRef request) {
    if (request.nodeName() == null) {
      return;
    }
    Map<String, String> nodeLabels = reader.getNode(request.nodeName()).map(n -> n.getMetadata().getLabels()).orElse(null);
    nodes.deleteNode(request.nodeName());
    if (nodes.removeNodeFinalizer(request.nodeName(), WellKnown.TERMINATION_FINALIZER) && nodeLabels != null) {
      metrics.nodeTerminated(nodeLabels.get(WellKnown.NODEPOOL_LABEL), nodeLabels.get(WellKnown.ZONE_LABEL));
    }
    log.atInfo().setMessage("node deleted").addKeyValue("nodeclaim", request.nodeClaim())
        .addKeyValue("node", request.nodeName()).log();
  }

  /**
   * Idempotent for the same reason as {@link #deleteNode}. Counted as terminated by the call that removes the
   * finalizer, so a retry does not count it twice.
   */
  @Override
  public void deleteNodeClaim(NodeClaimRef request) {
    deleteClaim(request.nodeClaim());
  }

  /** Idempotent as {@link #deleteNode} and {@link #deleteNodeClaim}: what is gone already is done. */
  @Override
  public void deleteNodeAndClaim(NodeRef request) {
    deleteNodeOf(request);
    deleteClaim(request.nodeClaim());
    events.record(request.events());
  }

  private void deleteClaim(String nodeClaim) {
    Map<String, String> labels = claims.getNodeClaim(nodeClaim).map(c -> c.getMetadata().getLabels()).orElse(null);
    claims.deleteNodeClaim(nodeClaim);
    if (claims.removeNodeClaimFinalizer(nodeClaim, WellKnown.TERMINATION_FINALIZER)) {
      Map<String, String> known = labels == null ? Map.of() : labels;
      metrics.terminated(known.get(WellKnown.NODEPOOL_LABEL), known.get(WellKnown.CAPACITY_TYPE_LABEL), known.get(WellKnown.ZONE_LABEL));
    }
    log.atInfo().setMessage("nodeclaim deleted").addKeyValue("nodeclaim", nodeClaim).log();
  }

  private NodeClaim claim(String name) {
    return claims.getNodeClaim(name).orElseThrow(() -> Failures.of(new ObjectNotFoundException("NodeClaim", name)));
  }

  private Node node(String name) {
    return reader.getNode(name).orElseThrow(() -> Failures.of(new ObjectNotFoundException("Node", name)));
  }
}

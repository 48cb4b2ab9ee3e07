package dev.farrier.activities.provisioning;

import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.CapacityReservation;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.aws.EphemeralStorage;
import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassStatus;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.nodeclass.NodeClassImages;
import dev.farrier.activities.nodeclass.NodeClassLaunches;
import dev.farrier.activities.nodeclass.NodeClassReservations;
import dev.farrier.activities.views.InstanceTypeViews;
import dev.farrier.activities.views.NodeOverlayViews;
import dev.farrier.activities.views.PodViews;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.NodeOverlays;
import dev.farrier.planner.PodSpecView;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every planning round reads the same way, whether it provisions, replaces or disrupts: each NodePool that passes
 * {@link NodePoolValidation} with its EC2NodeClass, the instance types a node class can launch, and the DaemonSets'
 * pods every new node runs.
 */
public final class PlanningInputs {
  private static final Logger log = LoggerFactory.getLogger(PlanningInputs.class);

  private final ClusterReader reader;
  private final CloudProvider cloud;

  public PlanningInputs(ClusterReader reader, CloudProvider cloud) {
    this.reader = reader;
    this.cloud = cloud;
  }

  /** A NodePool that passes {@link NodePoolValidation}, with its EC2NodeClass (null when missing). */
  public record Plannable(NodePool pool, EC2NodeClass nodeClass) {}

  /**
   * The NodePool with its class when it can be planned; empty, logged, when {@link NodePoolValidation} finds a problem
   * (the status loop shows it on the NodePool as ValidationSucceeded False, with an Event), so one bad NodePool is
   * left out and every other one is planned.
   */
  public Optional<Plannable> plannable(NodePool pool) {
    var ref = pool.getSpec() == null || pool.getSpec().template() == null || pool.getSpec().template().spec() == null ? null
        : pool.getSpec().template().spec().nodeClassRef();
    EC2NodeClass nodeClass = ref == null || ref.name() == null ? null : reader.getNodeClass(ref.name()).orElse(null);
    List<String> problems = NodePoolValidation.problems(pool, nodeClass);
    if (!problems.isEmpty()) {
      log.info("nodepool cannot be planned, left out nodepool={} problems=\"{}\"", pool.getMetadata().getName(), String.join("; ", problems));
      return Optional.empty();
    }
    return Optional.of(new Plannable(pool, nodeClass));
  }

  /**
   * As {@link #plannable(NodePool)}, for new nodes: also left out, logged, while its EC2NodeClass does not exist or its
   * status says it is not Ready ({@link #notLaunchable}), as Karpenter provisions only for a Ready NodePool; the status
   * loop shows why on the NodePool (NodeClassReady False, with an Event).
   */
  public Optional<Plannable> launchable(NodePool pool) {
    var plannable = plannable(pool);
    String why = plannable.map(p -> notLaunchable(pool, p.nodeClass())).orElse(null);
    if (why != null) {
      log.info("nodepool cannot launch, left out nodepool={} reason=\"{}\"", pool.getMetadata().getName(), why);
      return Optional.empty();
    }
    return plannable;
  }

  /**
   * Why no node can be launched for a valid NodePool whose class is {@code nodeClass} (null: not found): the class is
   * missing, or its Ready condition is False (no subnet, security group, image or instance profile resolved); null when
   * it can. A class whose status has no Ready condition yet is launched for: the launch resolves what it needs itself
   * and fails with the reason if it cannot.
   */
  static String notLaunchable(NodePool pool, EC2NodeClass nodeClass) {
    if (nodeClass == null) {
      return NodePoolValidation.nodeClassMissing(pool.getSpec().template().spec().nodeClassRef().name());
    }
    var ready = nodeClass.getStatus() == null ? Optional.<Condition>empty()
        : Conditions.find(nodeClass.getStatus().conditionsOrEmpty(), EC2NodeClassStatus.READY);
    if (ready.isPresent() && !ready.get().isTrue()) {
      return NodePoolValidation.nodeClassNotReady(nodeClass.getMetadata().getName(), ready.get());
    }
    return null;
  }

  /** The cloud's instance type catalogue, as every round plans with it. */
  public List<InstanceType> catalog() {
    return cloud.instanceTypes();
  }

  /**
   * The cluster's NodeOverlays that stand ({@link NodeOverlayViews#resolve}); a round applies them to each NodePool's
   * instance types, so provisioning, replacement and consolidation weigh the same prices and capacity.
   */
  public NodeOverlays overlays(List<InstanceType> catalog) {
    var overlays = reader.listNodeOverlays();
    if (overlays.isEmpty()) {
      return NodeOverlays.NONE;
    }
    Map<String, EC2NodeClass> classes = new HashMap<>();
    reader.listNodeClasses().forEach(c -> classes.put(c.getMetadata().getName(), c));
    return NodeOverlayViews.resolve(overlays, reader.listNodePools(), classes, catalog);
  }

  /**
   * The catalogue's types a node of the class can be launched as: those an image it resolves to now fits (its
   * architecture; for an alias, the NVIDIA or Neuron image a GPU or accelerator type needs) and the class admits
   * ({@link NodeClassLaunches#admits}), with the ephemeral
   * storage its volumes offer and the os of its AMI family. None when the class is missing or resolves nothing.
   */
  public List<InstanceTypeView> instanceTypes(List<InstanceType> catalog, EC2NodeClass nodeClass) {
    List<Image> images = nodeClass == null ? List.of() : NodeClassImages.resolve(cloud, nodeClass);
    return InstanceTypeViews.instanceTypes(catalog, t -> NodeClassLaunches.admits(nodeClass, t) && images.stream().anyMatch(i -> i.fits(t)),
        ephemeralStorage(nodeClass),
        nodeClass == null ? null : NodeClassLaunches.amiFamily(nodeClass), reservations(nodeClass));
  }

  /**
   * The capacity reservations the class selects, with the instances each can still take now (the status has no
   * counts, so the cloud is asked); none when it selects none, or when the cloud cannot say now (the pods then plan
   * without reserved offerings, as on-demand, until it can).
   */
  private List<CapacityReservation> reservations(EC2NodeClass nodeClass) {
    var terms = NodeClassReservations.terms(nodeClass);
    if (terms.isEmpty()) {
      return List.of();
    }
    try {
      return cloud.resolveCapacityReservations(terms);
    } catch (CloudProviderException e) {
      log.warn("capacity reservations not read, planning without them nodeclass={} kind={} reason=\"{}\"",
          nodeClass.getMetadata().getName(), e.kind(), e.getMessage());
      return List.of();
    }
  }

  /**
   * The ephemeral storage a node of the class offers ({@link EphemeralStorage}: per type, its instance store under
   * RAID0, else its root volume); the default root volume when its volume size is unreadable (its launch then fails
   * with the reason, and this pool's pods are not planned onto more disk than the default).
   */
  public static EphemeralStorage ephemeralStorage(EC2NodeClass nodeClass) {
    var spec = nodeClass.getSpec();
    try {
      return EphemeralStorage.of(NodeClassLaunches.amiFamily(nodeClass), spec.blockDeviceMappings(), spec.instanceStorePolicy());
    } catch (IllegalArgumentException e) {
      log.warn("ephemeral storage unreadable, planning with the default nodeclass={} reason=\"{}\"", nodeClass.getMetadata().getName(),
          e.getMessage());
      return new EphemeralStorage(EphemeralStorage.DEFAULT_BYTES, EphemeralStorage.RAID0.equals(spec.instanceStorePolicy()));
    }
  }

  /** The pods of every DaemonSet, as on a new node (the planner counts them on each node it plans). */
  public List<PodSpecView> daemonSetPods() {
    return reader.listDaemonSets().stream()
        .map(ds -> PodViews.of(ds.getSpec().getTemplate().getMetadata() == null
            ? new ObjectMeta() : ds.getSpec().getTemplate().getMetadata(),
            ds.getSpec().getTemplate().getSpec(), PodSpecView.OWNER_DAEMON_SET))
        .toList();
  }
}

package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.CapacityReservation;
import dev.farrier.activities.cloud.CapacityReservationTerm;
import dev.farrier.activities.cloud.Ownership;
import dev.farrier.activities.cloud.AmiSelectorTerm;
import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.CloudProviderException.Kind;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.InstanceProfileRequest;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.SecurityGroup;
import dev.farrier.activities.cloud.SecurityGroupTerm;
import dev.farrier.activities.cloud.Subnet;
import dev.farrier.activities.cloud.SubnetTerm;
import dev.farrier.activities.cloud.LaunchRequest;
import dev.farrier.activities.cloud.NodeClassLaunch;
import dev.farrier.activities.cloud.aws.userdata.NodeBootstrap;
import dev.farrier.activities.crd.ResolvedSubnet;
import dev.farrier.activities.cloud.aws.userdata.UserDataFormat;
import dev.farrier.model.Taint;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.NodeKubelet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.model.InstanceStateChange;

/**
 * The {@code aws} cloud: EC2 instances launched with CreateFleet from Farrier's launch templates, found again by
 * their NodeClaim tag, terminated only when Farrier's ownership tags say so; EC2NodeClass selectors resolved by
 * {@link AwsImageResolver}, {@link AwsSubnetResolver}, {@link AwsSecurityGroupResolver} and
 * {@link AwsInstanceProfiles}.
 */
public final class AwsCloudProvider implements CloudProvider {
  private static final Logger log = LoggerFactory.getLogger(AwsCloudProvider.class);
  /** How long to wait for a just-launched instance to show in DescribeInstances (it is eventually consistent). */
  private static final int DESCRIBE_ATTEMPTS = 5;
  /** Launch templates one fleet may use: their hashes (20 characters and a comma each) fill the 256-character tag. */
  static final int MAX_TEMPLATES = 12;

  private final Ec2Api ec2;
  private final AwsProviderSettings settings;
  private final Clock clock;
  private final UnavailableOfferings unavailable;
  private final AwsInstanceTypes instanceTypes;
  private final LaunchTemplates launchTemplates;
  private final AwsCapacityReservations reservations;
  private final FleetLauncher fleet;
  private final Ec2Instances instances;
  private final AwsImageResolver images;
  private final AwsSubnetResolver subnets;
  private final AwsSecurityGroupResolver securityGroups;
  private final AwsInstanceProfiles instanceProfiles;

  /**
   * @param kubernetesVersion the cluster's minor version (e.g. {@code 1.34}), read when an AMI alias is resolved
   */
  public AwsCloudProvider(AwsClients clients, AwsProviderSettings settings, Supplier<String> kubernetesVersion, Clock clock) {
    this(clients, Ec2Api.of(clients.ec2()), settings, kubernetesVersion, clock);
  }

  /** With {@code ec2} standing for the EC2 calls of the launch path (a test's fake of one call); resolution uses {@code clients}. */
  AwsCloudProvider(AwsClients clients, Ec2Api ec2, AwsProviderSettings settings, Supplier<String> kubernetesVersion, Clock clock) {
    this.ec2 = ec2;
    this.images = new AwsImageResolver(clients, kubernetesVersion, settings.ssmParameterRoot());
    this.subnets = new AwsSubnetResolver(clients);
    this.securityGroups = new AwsSecurityGroupResolver(clients);
    this.instanceProfiles = new AwsInstanceProfiles(clients, settings.region());
    this.settings = settings;
    this.clock = clock;
    this.unavailable = new UnavailableOfferings(clock);
    this.instanceTypes = new AwsInstanceTypes(ec2, unavailable, settings.region(), settings.onDemandPricesFile(), clock,
        settings.catalogueRefresh());
    this.launchTemplates = new LaunchTemplates(ec2);
    this.reservations = new AwsCapacityReservations(ec2, clock);
    this.fleet = new FleetLauncher(ec2, unavailable);
    this.instances = new Ec2Instances(ec2, this::price);
  }

  /**
   * Idempotent per NodeClaim: a non-terminated instance tagged with the claim (in this cluster) is returned instead
   * of launching; the launch templates are found by their hash-derived names; CreateFleet carries a client token
   * derived from the claim and the request, so a repeat after a lost response is answered with the same fleet.
   */
  @Override
  public Instance create(LaunchRequest request) {
    validate(request);
    List<Instance> existing = instances.byNodeClaim(request.cluster(), request.nodeClaim());
    if (!existing.isEmpty()) {
      Instance found = existing.getFirst();
      log.info("launch found the claim's instance nodeclaim={} instance={} state={}", request.nodeClaim(), found.id(), found.state());
      return found;
    }
    NodeClassLaunch nodeClass = request.launch();
    Map<String, InstanceType> types = instanceTypes().stream().collect(Collectors.toMap(InstanceType::name, Function.identity()));
    Map<String, Integer> freeAddresses = subnets.freeAddresses(nodeClass.subnets().stream().map(ResolvedSubnet::id).toList());
    FleetPlan planned = FleetPlan.plan(request.instanceTypes(), types, request.capacityTypes(), nodeClass.subnets(), freeAddresses,
        request.allowedZones(), request.images(), request.usableReservations());
    Map<String, String> templateByType = templatesByType(request, planned, types);
    FleetPlan plan = planned.onlyTypes(templateByType.keySet());
    Map<String, String> tags = new LinkedHashMap<>(request.tags());
    tags.putAll(Ownership.launchTags(request.cluster(), request.nodePool(), request.nodeClaim()));
    tags.putIfAbsent("Name", request.nodePool() + "/" + request.nodeClaim());
    tags.put(FarrierTags.LAUNCH_TEMPLATE, templateByType.values().stream().distinct().map(LaunchTemplateSpec::hashOf)
        .collect(Collectors.joining(",")));
    String instanceId = fleet.launch(request.cluster(), request.nodeClaim(), plan, templateByType, tags, request.launch().context());
    Instance visible = awaitVisible(instanceId);
    // The fleet targeted the reservation, so the instance is in it, whether or not DescribeInstances says so yet.
    Instance launched = plan.reservation() == null || visible.capacityReservationId() != null ? visible
        : visible.inReservation(plan.reservation().id());
    log.info("launch nodeclaim={} instance={} instanceType={} zone={} capacityType={} templates={}", request.nodeClaim(), launched.id(),
        launched.instanceType(), launched.zone(), launched.capacityType(), templateByType.values().stream().distinct().toList());
    return launched;
  }

  private static void validate(LaunchRequest request) {
    if (request.cluster() == null || request.cluster().isBlank() || request.nodeClaim() == null || request.nodeClaim().isBlank()) {
      throw new CloudProviderException(Kind.INVALID_REQUEST, "a launch needs a cluster and a NodeClaim name");
    }
    if (request.instanceTypes().isEmpty() || request.capacityTypes().isEmpty() || request.images().isEmpty()) {
      throw new CloudProviderException(Kind.INVALID_REQUEST, "launch of " + request.nodeClaim()
          + " needs at least one instance type, capacity type and image");
    }
    NodeClassLaunch nodeClass = request.launch();
    if (nodeClass.subnets().isEmpty() || nodeClass.securityGroupIds().isEmpty() || nodeClass.amiFamily() == null) {
      throw new CloudProviderException(Kind.INVALID_REQUEST, "launch of " + request.nodeClaim() + " on AWS needs the EC2NodeClass's"
          + " subnets, security groups and amiFamily (got subnets=" + nodeClass.subnets().size() + " securityGroups="
          + nodeClass.securityGroupIds().size() + " amiFamily=" + nodeClass.amiFamily() + ")");
    }
  }

  /**
   * The launch template of each planned instance type, in the plan's order: one per image and per kubelet
   * values ({@link NodeKubelet}: the max pods and kube-reserved the planner assumed for that type), as Karpenter
   * groups its launch templates. At most {@link #MAX_TEMPLATES} templates; the types of further groups (the
   * priciest) are left out of this fleet, so the instance's template tag stays within EC2's 256 characters.
   */
  private Map<String, String> templatesByType(LaunchRequest request, FleetPlan plan, Map<String, InstanceType> types) {
    NodeClassLaunch nodeClass = request.launch();
    EphemeralStorage ephemeralStorage;
    try {
      ephemeralStorage = EphemeralStorage.of(nodeClass.amiFamily(), nodeClass.blockDeviceMappings(), nodeClass.instanceStorePolicy());
    } catch (IllegalArgumentException e) {
      throw new CloudProviderException(Kind.INVALID_REQUEST, "EC2NodeClass " + request.nodeClass() + ": " + e.getMessage());
    }
    Map<String, String> templateBySpec = new LinkedHashMap<>();
    Map<String, String> templateByType = new LinkedHashMap<>();
    for (FleetPlan.Override override : plan.overrides()) {
      InstanceType type = types.get(override.instanceType());
      if (templateByType.containsKey(type.name())) {
        continue;
      }
      NodeKubelet kubelet = NodeKubelet.of(type.capacity(ephemeralStorage.bytes(type)), nodeClass.kubeletSettings());
      LaunchTemplateSpec spec = templateSpec(request, plan.imageByType().get(type.name()), plan, kubelet,
          ephemeralStorage.instanceStoreRaid0());
      if (!templateBySpec.containsKey(spec.name()) && templateBySpec.size() == MAX_TEMPLATES) {
        continue;
      }
      templateByType.put(type.name(), templateBySpec.computeIfAbsent(spec.name(), n -> launchTemplates.ensure(spec)));
    }
    return templateByType;
  }

  private LaunchTemplateSpec templateSpec(LaunchRequest request, Image image, FleetPlan plan, NodeKubelet kubelet,
      boolean instanceStoreRaid0) {
    NodeClassLaunch nodeClass = request.launch();
    Map<String, String> labels = new TreeMap<>(request.nodeLabels());
    labels.put(WellKnown.CAPACITY_TYPE_LABEL, plan.capacityType());
    if (plan.reservation() != null) {
      labels.putAll(plan.reservation().nodeLabels());
    }
    // Registered tainted, as Karpenter does: nothing schedules before registration has set the node up, which removes it.
    List<Taint> taints = new ArrayList<>(request.nodeTaints());
    if (taints.stream().noneMatch(t -> WellKnown.UNREGISTERED_TAINT_KEY.equals(t.key()))) {
      taints.add(WellKnown.UNREGISTERED_TAINT);
    }
    String userData;
    try {
      userData = UserDataFormat.of(nodeClass.amiFamily()).render(new NodeBootstrap(settings.clusterName(), settings.clusterEndpoint(),
          settings.clusterCaBundle(), settings.serviceCidr(), labels, taints, nodeClass.kubelet(), kubelet, nodeClass.userData(),
          instanceStoreRaid0));
    } catch (IllegalArgumentException e) {
      throw new CloudProviderException(Kind.INVALID_REQUEST, "EC2NodeClass " + request.nodeClass() + ": " + e.getMessage());
    }
    Map<String, String> templateTags = new TreeMap<>(nodeClass.tags());
    templateTags.put(WellKnown.TAG_NODECLASS, request.nodeClass());
    try {
      return new LaunchTemplateSpec(request.cluster(), image.id(), nodeClass.securityGroupIds(), userData,
          LaunchTemplateSpec.withDefaults(nodeClass.metadataOptions()),
          BlockDevices.effective(nodeClass.amiFamily(), nodeClass.blockDeviceMappings()), templateTags, nodeClass.instanceProfile(),
          nodeClass.associatePublicIPAddress(), nodeClass.detailedMonitoring(),
          plan.reservation() == null ? null : plan.reservation().id(), plan.reservation() == null ? null : plan.reservation().reservationType(),
          nodeClass.connectionTracking(), nodeClass.ipPrefixCount(), nodeClass.cpuOptions());
    } catch (IllegalArgumentException e) {
      throw new CloudProviderException(Kind.INVALID_REQUEST, "EC2NodeClass " + request.nodeClass() + ": " + e.getMessage());
    }
  }

  private Instance awaitVisible(String instanceId) {
    for (int attempt = 1; attempt <= DESCRIBE_ATTEMPTS; attempt++) {
      Optional<Instance> instance = instances.get(instanceId);
      if (instance.isPresent()) {
        return instance.get();
      }
      try {
        Thread.sleep(Duration.ofMillis(200L * attempt));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    // Retryable: the retry finds the instance by its NodeClaim tag instead of launching again.
    throw new CloudProviderException(Kind.THROTTLED, "instance " + instanceId + " was launched but is not visible in DescribeInstances yet");
  }

  /**
   * Ownership first (owner tag, this cluster, and the claim when named), else {@link Kind#NOT_OWNED} and nothing is
   * called. Idempotent: unknown, shutting-down and terminated instances are returned as they are.
   */
  @Override
  public Instance delete(String cluster, String nodeClaim, String instanceId) {
    Optional<Instance> found = instances.get(instanceId);
    if (found.isEmpty()) {
      return Instance.notFound(instanceId);
    }
    Instance instance = found.get();
    Optional<String> problem = Ownership.problem(instance.tags(), cluster, nodeClaim);
    if (problem.isPresent()) {
      log.warn("terminate refused instance={} nodeclaim={} reason=\"{}\"", instanceId, nodeClaim, problem.get());
      throw new CloudProviderException(Kind.NOT_OWNED, "instance " + instanceId + " " + problem.get());
    }
    if ("shutting-down".equals(instance.state()) || "terminated".equals(instance.state())) {
      return instance;
    }
    List<InstanceStateChange> changes;
    try {
      changes = ec2Terminate(instanceId);
    } catch (SdkException e) {
      if (Ec2Errors.isNotFound(e)) {
        return Instance.notFound(instanceId);
      }
      throw Ec2Errors.map("TerminateInstances " + instanceId, e);
    }
    String state = changes.isEmpty() || changes.getFirst().currentState() == null ? "shutting-down" : changes.getFirst().currentState().nameAsString();
    log.info("terminate instance={} nodeclaim={} cluster={} was={} now={}", instanceId, nodeClaim, cluster, instance.state(), state);
    return instance.inState(state);
  }

  private List<InstanceStateChange> ec2Terminate(String instanceId) {
    return ec2.terminateInstances(b -> b.instanceIds(instanceId)).terminatingInstances();
  }

  @Override
  public Optional<Instance> get(String instanceId) {
    return instances.get(instanceId);
  }

  @Override
  public List<Instance> list(String cluster) {
    return instances.byCluster(cluster);
  }

  @Override
  public List<InstanceType> instanceTypes() {
    return instanceTypes.instanceTypes();
  }

  @Override
  public List<CapacityReservation> resolveCapacityReservations(List<CapacityReservationTerm> terms) {
    return reservations.resolve(terms);
  }

  @Override
  public List<Image> resolveImages(List<AmiSelectorTerm> terms) {
    return images.resolve(terms);
  }

  @Override
  public List<Subnet> resolveSubnets(List<SubnetTerm> terms) {
    return subnets.resolve(terms);
  }

  @Override
  public List<SecurityGroup> resolveSecurityGroups(List<SecurityGroupTerm> terms) {
    return securityGroups.resolve(terms);
  }

  @Override
  public String resolveInstanceProfile(InstanceProfileRequest request) {
    return instanceProfiles.resolve(request);
  }

  /** Marks an offering unavailable for {@link UnavailableOfferings#DEFAULT_TTL} (e.g. after a spot interruption). */
  @Override
  public void markUnavailable(String instanceType, String zone, String capacityType, String reason) {
    unavailable.mark(instanceType, zone, capacityType, reason);
  }

  /**
   * Deletes this cluster's launch templates that no live instance was launched from and that are older than
   * {@code minAge} (so a template made for a launch in flight survives). Idempotent. Returns the names deleted.
   */
  public List<String> deleteUnusedLaunchTemplates(String cluster, Duration minAge) {
    Set<String> inUse = new HashSet<>();
    for (Instance instance : list(cluster)) {
      String names = instance.tags().get(FarrierTags.LAUNCH_TEMPLATE);
      if (names != null) {
        Arrays.stream(names.split(",")).map(n -> n.contains("/") ? n : LaunchTemplateSpec.nameOf(cluster, n)).forEach(inUse::add);
      }
    }
    return launchTemplates.deleteUnused(cluster, inUse, clock.instant().minus(minAge));
  }

  /** The offering's price, 0 when unknown: reading or terminating an instance never depends on the price catalogue. */
  private double price(String instanceType, String zone, String capacityType) {
    try {
      return instanceTypes().stream().filter(t -> t.name().equals(instanceType)).flatMap(t -> t.offerings().stream())
        .filter(o -> o.zone().equals(zone) && o.capacityType().equals(capacityType)).mapToDouble(o -> o.pricePerHour()).findFirst().orElse(0);
    } catch (RuntimeException e) {
      return 0;
    }
  }
}

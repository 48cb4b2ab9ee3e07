package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.CapacityReservation;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.CloudProviderException.Kind;
import dev.farrier.model.WellKnown;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.model.CreateFleetError;
import software.amazon.awssdk.services.ec2.model.CreateFleetInstance;
import software.amazon.awssdk.services.ec2.model.CreateFleetResponse;
import software.amazon.awssdk.services.ec2.model.DefaultTargetCapacityType;
import software.amazon.awssdk.services.ec2.model.FleetLaunchTemplateConfigRequest;
import software.amazon.awssdk.services.ec2.model.FleetLaunchTemplateOverrides;
import software.amazon.awssdk.services.ec2.model.FleetLaunchTemplateOverridesRequest;
import software.amazon.awssdk.services.ec2.model.FleetOnDemandAllocationStrategy;
import software.amazon.awssdk.services.ec2.model.FleetType;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.SpotAllocationStrategy;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.TagSpecification;

/**
 * One CreateFleet of type {@code instant} for one instance: on-demand {@code lowest-price}, spot
 * {@code price-capacity-optimized}, the plan's overrides under the launch template of each instance type (one per
 * architecture and kubelet values), and the tags
 * on the instance, its volumes and its network interfaces. Capacity errors mark their offerings unavailable and
 * become {@link Kind#INSUFFICIENT_CAPACITY}.
 */
final class FleetLauncher {
  private static final Logger log = LoggerFactory.getLogger(FleetLauncher.class);

  private final Ec2Api ec2;
  private final UnavailableOfferings unavailable;

  FleetLauncher(Ec2Api ec2, UnavailableOfferings unavailable) {
    this.ec2 = ec2;
    this.unavailable = unavailable;
  }

  /**
   * Returns the launched instance's id. The client token derives from the claim and the plan, so EC2 answers a
   * repeat of the same request (after a lost response) with the same fleet instead of a second instance. A
   * {@code context} (the EC2NodeClass's, null for none) is the request's {@code Context}, as karpenter-provider-aws
   * passes it.
   */
  String launch(String cluster, String nodeClaim, FleetPlan plan, Map<String, String> templateByType, Map<String, String> tags,
      String context) {
    Map<String, List<FleetLaunchTemplateOverridesRequest>> overridesByTemplate = new LinkedHashMap<>();
    for (FleetPlan.Override o : plan.overrides()) {
      overridesByTemplate.computeIfAbsent(templateByType.get(o.instanceType()), t -> new ArrayList<>())
          .add(FleetLaunchTemplateOverridesRequest.builder().instanceType(o.instanceType()).subnetId(o.subnetId()).build());
    }
    List<FleetLaunchTemplateConfigRequest> configs = new ArrayList<>();
    overridesByTemplate.forEach((template, overrides) -> configs.add(FleetLaunchTemplateConfigRequest.builder()
        .launchTemplateSpecification(s -> s.launchTemplateName(template).version("$Latest")).overrides(overrides).build()));
    List<Tag> tagList = tags.entrySet().stream().map(e -> Tag.builder().key(e.getKey()).value(e.getValue()).build()).toList();
    boolean spot = WellKnown.CAPACITY_SPOT.equals(plan.capacityType());
    boolean capacityBlock = plan.reservation() != null && CapacityReservation.CAPACITY_BLOCK.equals(plan.reservation().reservationType());
    CreateFleetResponse response;
    try {
      response = ec2.createFleet(b -> {
        b.type(FleetType.INSTANT)
            .clientToken(clientToken(cluster, nodeClaim, plan))
            .launchTemplateConfigs(configs)
            .targetCapacitySpecification(t -> t.totalTargetCapacity(1).defaultTargetCapacityType(targetCapacityType(plan)))
            .tagSpecifications(tagSpecifications(tagList, spot))
            .context(context);
        // As karpenter-provider-aws: a Capacity Block takes no on-demand options; the launch template targets the reservation.
        if (!capacityBlock) {
          b.onDemandOptions(o -> o.allocationStrategy(FleetOnDemandAllocationStrategy.LOWEST_PRICE));
        }
        if (spot) {
          b.spotOptions(o -> o.allocationStrategy(SpotAllocationStrategy.PRICE_CAPACITY_OPTIMIZED));
        }
      });
    } catch (SdkException e) {
      throw Ec2Errors.map("CreateFleet for NodeClaim " + nodeClaim, e);
    }
    return instanceId(nodeClaim, plan, response);
  }

  /**
   * Karpenter's target capacity type: spot, on-demand, and for a reservation {@code capacity-block} (a Capacity Block),
   * {@code reserved-capacity} (an interruptible reservation) or {@code on-demand} (an On-Demand Capacity Reservation,
   * which the launch template targets).
   */
  static DefaultTargetCapacityType targetCapacityType(FleetPlan plan) {
    if (WellKnown.CAPACITY_SPOT.equals(plan.capacityType())) {
      return DefaultTargetCapacityType.SPOT;
    }
    if (plan.reservation() == null) {
      return DefaultTargetCapacityType.ON_DEMAND;
    }
    return CapacityReservation.CAPACITY_BLOCK.equals(plan.reservation().reservationType()) ? DefaultTargetCapacityType.CAPACITY_BLOCK
        : plan.reservation().interruptible() ? DefaultTargetCapacityType.RESERVED_CAPACITY : DefaultTargetCapacityType.ON_DEMAND;
  }

  /**
   * Everything the fleet creates carries Farrier's tags (the IAM policy allows CreateFleet only so): the fleet, the
   * instance, its volumes and, for spot, the spot request. Network interfaces are not a CreateFleet tag type; the
   * launch template tags them ({@link LaunchTemplates#ensure}).
   */
  static List<TagSpecification> tagSpecifications(List<Tag> tags, boolean spot) {
    List<ResourceType> types = new ArrayList<>(List.of(ResourceType.FLEET, ResourceType.INSTANCE, ResourceType.VOLUME));
    if (spot) {
      types.add(ResourceType.SPOT_INSTANCES_REQUEST);
    }
    return types.stream().map(t -> TagSpecification.builder().resourceType(t).tags(tags).build()).toList();
  }

  /** The first instance of the response, or the typed failure its errors explain. */
  String instanceId(String nodeClaim, FleetPlan plan, CreateFleetResponse response) {
    for (CreateFleetInstance instance : response.instances()) {
      if (!instance.instanceIds().isEmpty()) {
        return instance.instanceIds().getFirst();
      }
    }
    Map<String, String> zoneBySubnet = plan.overrides().stream()
        .collect(Collectors.toMap(FleetPlan.Override::subnetId, FleetPlan.Override::zone, (a, b) -> a));
    boolean capacity = response.errors().isEmpty();
    for (CreateFleetError error : response.errors()) {
      if (!CapacityErrors.isCapacityError(error.errorCode())) {
        continue;
      }
      capacity = true;
      FleetLaunchTemplateOverrides o = error.launchTemplateAndOverrides() == null ? null : error.launchTemplateAndOverrides().overrides();
      if (o == null || o.instanceTypeAsString() == null) {
        continue;
      }
      String zone = o.availabilityZone() != null ? o.availabilityZone() : zoneBySubnet.get(o.subnetId());
      if (zone != null) {
        unavailable.mark(o.instanceTypeAsString(), zone, plan.capacityType(), error.errorCode());
      }
    }
    String errors = response.errors().stream().map(e -> e.errorCode() + ": " + e.errorMessage()).distinct().collect(Collectors.joining("; "));
    log.info("fleet launched nothing nodeclaim={} capacityType={} overrides={} errors={}", nodeClaim, plan.capacityType(),
        plan.overrides().size(), errors.isEmpty() ? "none" : errors);
    if (capacity) {
      throw new CloudProviderException(Kind.INSUFFICIENT_CAPACITY, "no " + plan.capacityType() + " capacity for NodeClaim " + nodeClaim
          + " in " + plan.overrides().size() + " offerings" + (errors.isEmpty() ? "" : ": " + errors));
    }
    throw new CloudProviderException(Kind.INVALID_REQUEST, "CreateFleet for NodeClaim " + nodeClaim + " launched nothing: " + errors);
  }

  private static String clientToken(String cluster, String nodeClaim, FleetPlan plan) {
    String seed = cluster + "/" + nodeClaim + "/" + plan.capacityType() + "/" + plan.overrides().stream()
        .map(o -> o.instanceType() + "@" + o.subnetId()).collect(Collectors.joining(","));
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8))).substring(0, 48);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK ships SHA-256", e);
    }
  }
}

package dev.farrier.activities.cloud.aws;

import software.amazon.awssdk.services.ec2.model.CapacityReservationPreference;
import dev.farrier.activities.cloud.Ownership;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesResponse;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.GroupIdentifier;
import software.amazon.awssdk.services.ec2.model.InstanceLifecycleType;
import software.amazon.awssdk.services.ec2.model.Reservation;
import software.amazon.awssdk.services.ec2.model.Tag;

/** Reads instances from EC2 (by id, by NodeClaim tag, by cluster) as {@link Instance}s. */
final class Ec2Instances {
  static final List<String> LIVE_STATES = List.of("pending", "running", "stopping", "stopped", "shutting-down");

  /** Prices an instance: (instance type, zone, capacity type) -> USD per hour, 0 when unknown. */
  interface Pricing {
    double price(String instanceType, String zone, String capacityType);
  }

  private final Ec2Api ec2;
  private final Pricing pricing;

  Ec2Instances(Ec2Api ec2, Pricing pricing) {
    this.ec2 = ec2;
    this.pricing = pricing;
  }

  /** Empty when EC2 does not know the id (any more). */
  Optional<Instance> get(String instanceId) {
    try {
      return describe(List.of(), List.of(instanceId)).stream().findFirst();
    } catch (SdkException e) {
      if (Ec2Errors.isNotFound(e)) {
        return Optional.empty();
      }
      throw Ec2Errors.map("DescribeInstances " + instanceId, e);
    }
  }

  /** The claim's instances in {@code cluster} that are not terminated. */
  List<Instance> byNodeClaim(String cluster, String nodeClaim) {
    return describeOrFail("DescribeInstances nodeclaim=" + nodeClaim, List.of(
        Filter.builder().name("tag:" + WellKnown.TAG_NODECLAIM).values(nodeClaim).build(),
        Filter.builder().name("tag:" + WellKnown.TAG_CLUSTER).values(cluster).build(),
        Filter.builder().name("instance-state-name").values(LIVE_STATES).build()));
  }

  /** Every non-terminated instance that is Farrier's for {@code cluster} ({@link Ownership}: the filter narrows, the rule decides). */
  List<Instance> byCluster(String cluster) {
    return describeOrFail("DescribeInstances cluster=" + cluster, List.of(
        Filter.builder().name("tag:" + WellKnown.TAG_CLUSTER).values(cluster).build(),
        Filter.builder().name("tag:" + WellKnown.TAG_OWNER).values(Ownership.OWNER_VALUE).build(),
        Filter.builder().name("instance-state-name").values(LIVE_STATES).build()))
        .stream().filter(i -> Ownership.owns(i.tags(), cluster)).toList();
  }

  private List<Instance> describeOrFail(String action, List<Filter> filters) {
    try {
      return describe(filters, List.of());
    } catch (SdkException e) {
      throw Ec2Errors.map(action, e);
    }
  }

  private List<Instance> describe(List<Filter> filters, List<String> ids) {
    List<Instance> instances = new ArrayList<>();
    String token = null;
    do {
      String next = token;
      DescribeInstancesResponse page = ec2.describeInstances(b -> {
        b.nextToken(next);
        if (!filters.isEmpty()) {
          b.filters(filters);
        }
        if (!ids.isEmpty()) {
          b.instanceIds(ids);
        }
      });
      for (Reservation reservation : page.reservations()) {
        reservation.instances().stream().map(this::toInstance).forEach(instances::add);
      }
      token = page.nextToken();
    } while (token != null && !token.isEmpty());
    return instances;
  }

  Instance toInstance(software.amazon.awssdk.services.ec2.model.Instance i) {
    String zone = i.placement() == null ? "" : i.placement().availabilityZone();
    // As karpenter-provider-aws's capacityTypeFromInstance: in a reservation it was targeted at, it is reserved.
    boolean reserved = i.instanceLifecycle() != InstanceLifecycleType.SPOT && i.capacityReservationId() != null
        && i.capacityReservationSpecification() != null
        && i.capacityReservationSpecification().capacityReservationPreference() == CapacityReservationPreference.CAPACITY_RESERVATIONS_ONLY;
    String capacityType = i.instanceLifecycle() == InstanceLifecycleType.SPOT ? WellKnown.CAPACITY_SPOT
        : reserved ? WellKnown.CAPACITY_RESERVED : WellKnown.CAPACITY_ON_DEMAND;
    Map<String, String> tags = i.tags().stream().collect(Collectors.toMap(Tag::key, t -> t.value() == null ? "" : t.value(), (a, b) -> b));
    String type = i.instanceTypeAsString();
    return new Instance(i.instanceId(), "aws:///" + zone + "/" + i.instanceId(), type, zone, capacityType, i.imageId(),
        i.state() == null ? "unknown" : i.state().nameAsString(), i.privateDnsName() == null ? "" : i.privateDnsName(),
        pricing.price(type, zone, capacityType), tags, i.launchTime(), i.subnetId(),
        i.securityGroups().stream().map(GroupIdentifier::groupId).sorted().toList(), reserved ? i.capacityReservationId() : null);
  }
}

package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.Subnet;
import dev.farrier.activities.cloud.SubnetTerm;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.ec2.model.Filter;

/**
 * {@code subnetSelectorTerms} against DescribeSubnets: per term one call with its id and tags as filters (ANDed;
 * a {@code *} value becomes a {@code tag-key} filter); terms ORed, each subnet once, sorted by id. Filters rather than
 * SubnetIds, so an unknown id matches nothing instead of failing the whole call. Read-only.
 */
public final class AwsSubnetResolver {
  private final AwsClients aws;

  public AwsSubnetResolver(AwsClients aws) {
    this.aws = aws;
  }

  public List<Subnet> resolve(List<SubnetTerm> terms) {
    Map<String, Subnet> found = new TreeMap<>();
    for (SubnetTerm term : terms) {
      if (term.id() == null && term.tags().isEmpty()) {
        continue;
      }
      List<Filter> filters = new ArrayList<>();
      if (term.id() != null) {
        filters.add(Ec2Filters.of("subnet-id", term.id()));
      }
      filters.addAll(Ec2Filters.tags(term.tags()));
      try {
        aws.ec2().describeSubnetsPaginator(b -> b.filters(filters)).subnets().forEach(s -> found.putIfAbsent(s.subnetId(),
            new Subnet(s.subnetId(), s.availabilityZone(), s.availabilityZoneId(), s.availableIpAddressCount(), Ec2Filters.toMap(s.tags()))));
      } catch (AwsServiceException e) {
        throw AwsCallFailures.translate("DescribeSubnets for subnetSelectorTerms " + term, e);
      }
    }
    return List.copyOf(found.values());
  }

  /**
   * The free IPv4 addresses of each of {@code subnetIds} now (one DescribeSubnets), for the launch to choose per zone
   * the subnet with the most ({@link dev.farrier.activities.cloud.ZonalSubnets}); a subnet gone since the status loop
   * resolved it is missing from the answer. Read-only.
   */
  public Map<String, Integer> freeAddresses(Collection<String> subnetIds) {
    Map<String, Integer> free = new TreeMap<>();
    if (subnetIds.isEmpty()) {
      return free;
    }
    try {
      aws.ec2().describeSubnetsPaginator(b -> b.filters(Filter.builder().name("subnet-id").values(subnetIds).build())).subnets()
          .forEach(s -> {
            if (s.availableIpAddressCount() != null) {
              free.put(s.subnetId(), s.availableIpAddressCount());
            }
          });
    } catch (AwsServiceException e) {
      throw AwsCallFailures.translate("DescribeSubnets for the free addresses of " + subnetIds, e);
    }
    return free;
  }
}

package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.SecurityGroup;
import dev.farrier.activities.cloud.SecurityGroupTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.ec2.model.Filter;

/**
 * {@code securityGroupSelectorTerms} against DescribeSecurityGroups: per term one call with its id
 * ({@code group-id}), name ({@code group-name}) and tags as filters, ANDed; terms ORed, each group once, sorted by
 * id. Filters rather than GroupIds, so an unknown id matches nothing instead of failing the call. Read-only.
 */
public final class AwsSecurityGroupResolver {
  private final AwsClients aws;

  public AwsSecurityGroupResolver(AwsClients aws) {
    this.aws = aws;
  }

  public List<SecurityGroup> resolve(List<SecurityGroupTerm> terms) {
    Map<String, SecurityGroup> found = new TreeMap<>();
    for (SecurityGroupTerm term : terms) {
      if (term.id() == null && term.name() == null && term.tags().isEmpty()) {
        continue;
      }
      List<Filter> filters = new ArrayList<>();
      if (term.id() != null) {
        filters.add(Ec2Filters.of("group-id", term.id()));
      }
      if (term.name() != null) {
        filters.add(Ec2Filters.of("group-name", term.name()));
      }
      filters.addAll(Ec2Filters.tags(term.tags()));
      try {
        aws.ec2().describeSecurityGroupsPaginator(b -> b.filters(filters)).securityGroups().forEach(g -> found.putIfAbsent(g.groupId(),
            new SecurityGroup(g.groupId(), g.groupName(), Ec2Filters.toMap(g.tags()))));
      } catch (AwsServiceException e) {
        throw AwsCallFailures.translate("DescribeSecurityGroups for securityGroupSelectorTerms " + term, e);
      }
    }
    return List.copyOf(found.values());
  }
}

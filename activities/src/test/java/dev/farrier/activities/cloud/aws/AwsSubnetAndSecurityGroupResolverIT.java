package dev.farrier.activities.cloud.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.SecurityGroup;
import dev.farrier.activities.cloud.SecurityGroupTerm;
import dev.farrier.activities.cloud.Subnet;
import dev.farrier.activities.cloud.SubnetTerm;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.TagSpecification;

/** subnetSelectorTerms and securityGroupSelectorTerms against moto's DescribeSubnets and DescribeSecurityGroups. */
class AwsSubnetAndSecurityGroupResolverIT extends MotoIT {
  private static String cluster;
  private static String subnetA;
  private static String subnetB;
  private static String untagged;
  private static String nodeGroup;
  private static String otherGroup;

  @BeforeAll
  static void network() {
    cluster = unique("farrier-net");
    String vpc = aws.ec2().createVpc(b -> b.cidrBlock("10.42.0.0/16")).vpc().vpcId();
    subnetA = subnet(vpc, "10.42.1.0/24", "us-east-1a", Map.of("karpenter.sh/discovery", cluster, "Name", cluster + "-a"));
    subnetB = subnet(vpc, "10.42.2.0/24", "us-east-1b", Map.of("karpenter.sh/discovery", cluster, "Name", cluster + "-b"));
    untagged = subnet(vpc, "10.42.3.0/24", "us-east-1c", Map.of());
    nodeGroup = aws.ec2().createSecurityGroup(b -> b.vpcId(vpc).groupName(cluster + "-node").description("nodes")
        .tagSpecifications(tags(ResourceType.SECURITY_GROUP, Map.of("karpenter.sh/discovery", cluster, "Name", "named-by-tag")))).groupId();
    otherGroup = aws.ec2().createSecurityGroup(b -> b.vpcId(vpc).groupName(cluster + "-other").description("other")).groupId();
  }

  private static String subnet(String vpc, String cidr, String zone, Map<String, String> tags) {
    return aws.ec2().createSubnet(b -> {
      b.vpcId(vpc).cidrBlock(cidr).availabilityZone(zone);
      if (!tags.isEmpty()) {
        b.tagSpecifications(tags(ResourceType.SUBNET, tags));
      }
    }).subnet().subnetId();
  }

  private static TagSpecification tags(ResourceType type, Map<String, String> tags) {
    return TagSpecification.builder().resourceType(type)
        .tags(tags.entrySet().stream().map(e -> Tag.builder().key(e.getKey()).value(e.getValue()).build()).toList()).build();
  }

  private static List<Subnet> subnets(SubnetTerm... terms) {
    return new AwsSubnetResolver(aws).resolve(List.of(terms));
  }

  private static List<String> groupIds(SecurityGroupTerm... terms) {
    return new AwsSecurityGroupResolver(aws).resolve(List.of(terms)).stream().map(SecurityGroup::id).toList();
  }

  private static List<String> sorted(String... ids) {
    return List.of(ids).stream().sorted().toList();
  }

  @Test
  void subnetsByDiscoveryTagWithZoneZoneIdFreeAddressesAndTags() {
    List<Subnet> found = subnets(new SubnetTerm(null, Map.of("karpenter.sh/discovery", cluster)));
    assertEquals(sorted(subnetA, subnetB), found.stream().map(Subnet::id).toList());
    Subnet a = found.stream().filter(s -> s.id().equals(subnetA)).findFirst().orElseThrow();
    assertEquals("us-east-1a", a.zone());
    assertNotNull(a.zoneId());
    assertTrue(a.zoneId().startsWith("use1-az"), a.zoneId());
    assertEquals(251, a.availableIps(), "a /24 minus the 5 addresses AWS reserves");
    assertEquals(cluster + "-a", a.tags().get("Name"));
  }

  @Test
  void subnetsByIdByStarTagAndOredTerms() {
    assertEquals(List.of(untagged), subnets(new SubnetTerm(untagged, null)).stream().map(Subnet::id).toList());
    assertEquals(List.of(), subnets(new SubnetTerm(untagged, Map.of("karpenter.sh/discovery", cluster))), "id and tags are ANDed");
    assertEquals(sorted(subnetA, subnetB), subnets(new SubnetTerm(null, Map.of("Name", cluster + "-*"))).stream().map(Subnet::id).toList(),
        "tag values take EC2 wildcards");
    assertEquals(sorted(subnetA, untagged), subnets(new SubnetTerm(untagged, null),
        new SubnetTerm(null, Map.of("Name", cluster + "-a"))).stream().map(Subnet::id).toList());
  }

  @Test
  void securityGroupsByTagsIdAndGroupName() {
    assertEquals(List.of(nodeGroup), groupIds(new SecurityGroupTerm(null, null, Map.of("karpenter.sh/discovery", cluster))));
    assertEquals(List.of(nodeGroup), groupIds(new SecurityGroupTerm(null, cluster + "-node", null)));
    assertEquals(List.of(otherGroup), groupIds(new SecurityGroupTerm(otherGroup, null, null)));
    assertEquals(List.of(), groupIds(new SecurityGroupTerm(null, "named-by-tag", null)), "name is the group name, not the Name tag");
    assertEquals(sorted(nodeGroup, otherGroup), groupIds(new SecurityGroupTerm(otherGroup, null, null),
        new SecurityGroupTerm(null, cluster + "-node", null)));
    var resolved = new AwsSecurityGroupResolver(aws).resolve(List.of(new SecurityGroupTerm(nodeGroup, null, null))).getFirst();
    assertEquals(List.of(cluster + "-node", cluster), List.of(resolved.name(), resolved.tags().get("karpenter.sh/discovery")));
  }

  @Test
  void selectorsMatchingNothingResolveToNothing() {
    assertEquals(List.of(), subnets(new SubnetTerm(null, Map.of("karpenter.sh/discovery", cluster + "-nobody"))));
    assertEquals(List.of(), subnets(new SubnetTerm("subnet-00000000000000000", null)), "an unknown id is no error");
    assertEquals(List.of(), groupIds(new SecurityGroupTerm("sg-00000000000000000", null, null)));
    assertEquals(List.of(), subnets(new SubnetTerm(null, Map.of())), "an empty term never means every subnet");
  }
}

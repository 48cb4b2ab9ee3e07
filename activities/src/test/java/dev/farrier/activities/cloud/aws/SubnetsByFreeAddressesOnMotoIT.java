package dev.farrier.activities.cloud.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.LaunchRequest;
import dev.farrier.activities.cloud.NodeClassLaunch;
import dev.farrier.activities.crd.ResolvedSubnet;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The launch's subnet per zone is the one with the most free addresses now (DescribeSubnets at launch, as
 * karpenter-provider-aws reads AvailableIpAddressCount), and a subnet with none left is never used. moto counts an
 * instance's and an ENI's addresses against its subnet.
 */
class SubnetsByFreeAddressesOnMotoIT extends MotoIT {
  private static MotoNetwork network;
  private static String cluster;
  private static String vpc;
  private static AwsCloudProvider provider;

  @BeforeAll
  static void setUp() {
    cluster = unique("subnets-it");
    network = MotoNetwork.create(aws, cluster);
    vpc = aws.ec2().createVpc(b -> b.cidrBlock("10.41.0.0/16")).vpc().vpcId();
    provider = new AwsCloudProvider(aws, AwsLaunchOnMotoIT.settings(cluster), () -> "1.34", Clock.systemUTC());
  }

  private static ResolvedSubnet subnet(String cidr, String zone) {
    var created = aws.ec2().createSubnet(b -> b.vpcId(vpc).cidrBlock(cidr).availabilityZone(zone)).subnet();
    return new ResolvedSubnet(created.subnetId(), zone, created.availabilityZoneId());
  }

  private static Instance launch(String claim, List<ResolvedSubnet> subnets) {
    LaunchRequest base = AwsLaunchOnMotoIT.request(cluster, claim, network, "AL2023", null, List.of("on-demand"));
    NodeClassLaunch n = base.launch();
    var launch = new NodeClassLaunch(n.amiFamily(), subnets, n.securityGroupIds(), n.instanceProfile(), n.userData(), n.kubelet(),
        n.metadataOptions(), n.blockDeviceMappings(), n.tags(), n.kubeletSettings(), n.instanceStorePolicy(), n.associatePublicIPAddress(),
        n.detailedMonitoring());
    return provider.create(new LaunchRequest(base.cluster(), base.nodeClaim(), base.nodePool(), base.nodeClass(), base.instanceTypes(),
        base.capacityTypes(), base.zones(), base.images(), base.tags(), base.nodeLabels(), base.nodeTaints(), launch));
  }

  @Test
  void ofTwoSubnetsInOneZoneTheEmptierIsChosen() {
    // The small one sorts first by id in half the runs; what decides is the count, 27 against 251.
    ResolvedSubnet small = subnet("10.41.1.0/27", "us-east-1a");
    ResolvedSubnet big = subnet("10.41.2.0/24", "us-east-1a");
    Instance launched = launch(unique("emptier"), List.of(small, big));
    assertEquals(big.id(), launched.subnetId());
    assertEquals(Map.of(small.id(), 27, big.id(), 250), new AwsSubnetResolver(aws).freeAddresses(List.of(small.id(), big.id())));
  }

  @Test
  void anExhaustedSubnetIsSkippedAndAZoneWithOnlyExhaustedSubnetsIsNoCapacity() {
    ResolvedSubnet exhausted = subnet("10.41.3.0/28", "us-east-1a");
    // A /28 has 11 free addresses: an ENI with 10 secondary addresses takes them all.
    aws.ec2().createNetworkInterface(b -> b.subnetId(exhausted.id()).secondaryPrivateIpAddressCount(10));
    assertEquals(Map.of(exhausted.id(), 0), new AwsSubnetResolver(aws).freeAddresses(List.of(exhausted.id())));

    var failure = assertThrows(CloudProviderException.class, () -> launch(unique("exhausted"), List.of(exhausted)));
    assertEquals(CloudProviderException.Kind.INSUFFICIENT_CAPACITY, failure.kind());
    assertTrue(failure.getMessage().contains("no free IP address"), failure.getMessage());

    ResolvedSubnet roomy = subnet("10.41.4.0/24", "us-east-1b");
    Instance launched = launch(unique("skipped"), List.of(exhausted, roomy));
    assertEquals(List.of(roomy.id(), "us-east-1b"), List.of(launched.subnetId(), launched.zone()),
        "us-east-1a's only subnet has no address left");
  }
}

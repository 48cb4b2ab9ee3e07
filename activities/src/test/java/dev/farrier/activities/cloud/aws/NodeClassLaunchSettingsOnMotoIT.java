package dev.farrier.activities.cloud.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.farrier.activities.cloud.aws.userdata.MimeMultipart;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.ResponseLaunchTemplateData;
import software.amazon.awssdk.services.ec2.model.Tag;

/**
 * An EC2NodeClass's {@code associatePublicIPAddress}, {@code detailedMonitoring} and {@code instanceStorePolicy}
 * reach the launch template, read back from moto with DescribeLaunchTemplateVersions as EC2 would launch from it.
 */
class NodeClassLaunchSettingsOnMotoIT extends MotoIT {
  private static MotoNetwork network;
  private static String cluster;
  private static AwsCloudProvider provider;

  @BeforeAll
  static void setUp() {
    cluster = unique("settings-it");
    network = MotoNetwork.create(aws, cluster);
    provider = new AwsCloudProvider(aws, AwsLaunchOnMotoIT.settings(cluster), () -> "1.34", Clock.systemUTC());
  }

  /** Launches one m5d.large (one 75 GB NVMe instance-store disk) and returns the data of the template it used. */
  private static ResponseLaunchTemplateData launched(String family, String userData, String instanceStorePolicy, Boolean publicIp,
      Boolean monitoring) {
    String claim = unique("claim");
    provider.create(AwsLaunchOnMotoIT.request(cluster, claim, network, family, userData, List.of("on-demand"), List.of("m5d.large"),
        instanceStorePolicy, publicIp, monitoring));
    var instance = aws.ec2().describeInstances(b -> b.filters(Filter.builder().name("tag:karpenter.sh/nodeclaim").values(claim).build()))
        .reservations().getFirst().instances().getFirst();
    String hashes = instance.tags().stream().filter(t -> t.key().equals(FarrierTags.LAUNCH_TEMPLATE)).map(Tag::value).findFirst().orElseThrow();
    String name = LaunchTemplateSpec.nameOf(cluster, hashes.split(",")[0]);
    return aws.ec2().describeLaunchTemplateVersions(b -> b.launchTemplateName(name).versions("$Latest")).launchTemplateVersions()
        .getFirst().launchTemplateData();
  }

  private static String decoded(ResponseLaunchTemplateData data) {
    return new String(Base64.getDecoder().decode(data.userData()), StandardCharsets.UTF_8);
  }

  @Test
  void associatePublicIPAddressGoesOnThePrimaryNetworkInterfaceWithTheSecurityGroups() {
    for (boolean publicIp : List.of(true, false)) {
      var data = launched("AL2023", null, null, publicIp, null);
      assertEquals(1, data.networkInterfaces().size(), data.toString());
      var primary = data.networkInterfaces().getFirst();
      assertEquals(0, primary.deviceIndex());
      assertEquals(publicIp, primary.associatePublicIpAddress(), data.toString());
      assertEquals(List.of(network.securityGroupId()), primary.groups(), "EC2 takes the groups on the interface when there is one");
      assertTrue(data.securityGroupIds().isEmpty(), data.toString());
    }
  }

  @Test
  void detailedMonitoringEnablesTheTemplatesMonitoring() {
    assertTrue(launched("AL2023", null, null, null, true).monitoring().enabled());
    assertFalse(launched("AL2023", null, null, null, false).monitoring().enabled());
  }

  @Test
  void instanceStorePolicyRaid0TellsEachFamilyToRaidItsInstanceStore() throws Exception {
    String al2023 = decoded(launched("AL2023", null, "RAID0", null, null));
    var nodeConfig = new YAMLMapper().readTree(MimeMultipart.parse(al2023).getLast().body());
    assertEquals("RAID0", nodeConfig.at("/spec/instance/localStorage/strategy").asText(), al2023);

    String al2 = decoded(launched("AL2", null, "RAID0", null, null));
    assertTrue(MimeMultipart.parse(al2).getLast().body().contains(" --local-disks raid0"), al2);

    String bottlerocket = decoded(launched("Bottlerocket", null, "RAID0", null, null));
    var mount = new TomlMapper().readTree(bottlerocket).at("/settings/bootstrap-commands/000-mount-instance-storage");
    assertEquals("[[\"apiclient\",\"ephemeral-storage\",\"init\"],[\"apiclient\",\"ephemeral-storage\",\"bind\",\"--dirs\","
        + "\"/var/lib/containerd\",\"/var/lib/kubelet\",\"/var/log/pods\"]]", mount.get("commands").toString(), bottlerocket);
    assertTrue(mount.get("essential").asBoolean(), bottlerocket);
    assertEquals("always", mount.get("mode").asText(), bottlerocket);

    assertEquals("#!/bin/bash\n/opt/join.sh\n", decoded(launched("Custom", "#!/bin/bash\n/opt/join.sh\n", "RAID0", null, null)),
        "Custom: the user's user data, nothing added");
  }

  @Test
  void theCatalogueReadsEachTypesInstanceStorageFromDescribeInstanceTypes() {
    var types = provider.instanceTypes();
    assertEquals(75, types.stream().filter(t -> t.name().equals("m5d.large")).findFirst().orElseThrow().instanceStoreGb());
    assertEquals(0, types.stream().filter(t -> t.name().equals("m5.large")).findFirst().orElseThrow().instanceStoreGb());
  }

  @Test
  void unsetSettingsLeaveTheTemplateToTheSubnetAndEc2sDefaults() throws Exception {
    var data = launched("AL2023", null, null, null, null);
    assertTrue(data.networkInterfaces().isEmpty(), "no interface: the subnet's MapPublicIpOnLaunch decides " + data);
    assertEquals(List.of(network.securityGroupId()), data.securityGroupIds());
    assertNull(data.monitoring(), "basic monitoring, EC2's default " + data);
    String al2023 = decoded(data);
    assertTrue(new YAMLMapper().readTree(MimeMultipart.parse(al2023).getLast().body()).at("/spec/instance").isMissingNode(), al2023);
    assertFalse(decoded(launched("AL2", null, null, null, null)).contains("--local-disks"));
    assertFalse(decoded(launched("Bottlerocket", null, null, null, null)).contains("bootstrap-commands"));
  }
}

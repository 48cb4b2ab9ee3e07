package dev.farrier.activities.cloud.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.farrier.activities.cloud.LaunchRequest;
import dev.farrier.activities.cloud.NodeClassLaunch;
import dev.farrier.activities.crd.BlockDevice;
import dev.farrier.activities.crd.BlockDeviceMapping;
import dev.farrier.activities.crd.ConnectionTracking;
import dev.farrier.activities.crd.CpuOptions;
import dev.farrier.activities.crd.MetadataOptions;
import dev.farrier.activities.cloud.aws.userdata.MimeMultipart;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ec2.model.CreateFleetRequest;
import software.amazon.awssdk.services.ec2.model.CreateFleetResponse;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateBlockDeviceMapping;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateInstanceMetadataOptions;
import software.amazon.awssdk.services.ec2.model.ResponseLaunchTemplateData;
import software.amazon.awssdk.services.ec2.model.Tag;

/**
 * An EC2NodeClass's {@code associatePublicIPAddress}, {@code detailedMonitoring}, {@code instanceStorePolicy},
 * {@code connectionTracking}, {@code ipPrefixCount}, {@code cpuOptions}, block device mappings and metadata options reach
 * the launch template, read back from moto with DescribeLaunchTemplateVersions as EC2 would launch from it; its
 * {@code context} reaches the CreateFleet request, recorded on its way to moto (which keeps no fleet context).
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
    return templateOf(claim);
  }

  /** The data of the launch template the instance of {@code claim} was launched from (its cheapest type's). */
  private static ResponseLaunchTemplateData templateOf(String claim) {
    var instance = aws.ec2().describeInstances(b -> b.filters(Filter.builder().name("tag:karpenter.sh/nodeclaim").values(claim).build()))
        .reservations().getFirst().instances().getFirst();
    String hashes = instance.tags().stream().filter(t -> t.key().equals(FarrierTags.LAUNCH_TEMPLATE)).map(Tag::value).findFirst().orElseThrow();
    String name = LaunchTemplateSpec.nameOf(cluster, hashes.split(",")[0]);
    return aws.ec2().describeLaunchTemplateVersions(b -> b.launchTemplateName(name).versions("$Latest")).launchTemplateVersions()
        .getFirst().launchTemplateData();
  }

  /** Launches one m5.large from the default test class with {@code change} applied to its settings. */
  private static ResponseLaunchTemplateData launchedWith(AwsCloudProvider through, java.util.function.UnaryOperator<NodeClassLaunch> change) {
    String claim = unique("knobs");
    LaunchRequest base = AwsLaunchOnMotoIT.request(cluster, claim, network, "AL2023", null, List.of("on-demand"));
    var request = new LaunchRequest(base.cluster(), base.nodeClaim(), base.nodePool(), base.nodeClass(), List.of("m5.large"),
        base.capacityTypes(), base.zones(), base.images(), base.tags(), base.nodeLabels(), base.nodeTaints(), change.apply(base.launch()));
    var instance = through.create(request);
    var template = templateOf(claim);
    through.delete(cluster, claim, instance.id());
    return template;
  }

  private static NodeClassLaunch with(NodeClassLaunch l, List<BlockDeviceMapping> devices, ConnectionTracking tracking, Integer prefixes,
      CpuOptions cpu, String context) {
    return new NodeClassLaunch(l.amiFamily(), l.subnets(), l.securityGroupIds(), l.instanceProfile(), l.userData(), l.kubelet(),
        l.metadataOptions(), devices, l.tags(), l.kubeletSettings(), l.instanceStorePolicy(), l.associatePublicIPAddress(),
        l.detailedMonitoring(), tracking, prefixes, cpu, context);
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

  /** Every block device and metadata field a class sets away from its default is what the template says. */
  @Test
  void everyBlockDeviceAndMetadataFieldTheClassSetsIsInTheLaunchTemplate() {
    String claim = unique("settings");
    var root = new BlockDeviceMapping("/dev/xvda", new BlockDevice(false, false, 4000L, "arn:aws:kms:us-east-1:111122223333:key/abcd",
        null, 250L, "100Gi", "io2"), true);
    var data = new BlockDeviceMapping("/dev/xvdb", new BlockDevice(true, true, null, null, "snap-0123456789abcdef0", null, "10Gi", "gp2"),
        null);
    var metadata = new MetadataOptions("enabled", "enabled", 3L, "optional");
    LaunchRequest base = AwsLaunchOnMotoIT.request(cluster, claim, network, "AL2023", null, List.of("on-demand"));
    NodeClassLaunch launch = base.launch();
    var request = new LaunchRequest(base.cluster(), base.nodeClaim(), base.nodePool(), base.nodeClass(), List.of("m5.large"),
        base.capacityTypes(), base.zones(), base.images(), base.tags(), base.nodeLabels(), base.nodeTaints(),
        new NodeClassLaunch(launch.amiFamily(), launch.subnets(), launch.securityGroupIds(), launch.instanceProfile(), launch.userData(),
            launch.kubelet(), metadata, List.of(root, data), launch.tags(), launch.kubeletSettings(), null, null, null));

    var instance = provider.create(request);

    var template = templateOf(claim);
    Map<String, LaunchTemplateBlockDeviceMapping> devices = template.blockDeviceMappings().stream()
        .collect(java.util.stream.Collectors.toMap(LaunchTemplateBlockDeviceMapping::deviceName, d -> d));
    var rootEbs = devices.get("/dev/xvda").ebs();
    assertEquals(List.of(false, false, 4000, "arn:aws:kms:us-east-1:111122223333:key/abcd", 250, 100, "io2"),
        List.of(rootEbs.deleteOnTermination(), rootEbs.encrypted(), rootEbs.iops(), rootEbs.kmsKeyId(), rootEbs.throughput(),
            rootEbs.volumeSize(), rootEbs.volumeTypeAsString()));
    var dataEbs = devices.get("/dev/xvdb").ebs();
    assertEquals(List.of("snap-0123456789abcdef0", 10, "gp2", true, true),
        List.of(dataEbs.snapshotId(), dataEbs.volumeSize(), dataEbs.volumeTypeAsString(), dataEbs.encrypted(), dataEbs.deleteOnTermination()));
    LaunchTemplateInstanceMetadataOptions options = template.metadataOptions();
    assertEquals(List.of("enabled", "enabled", 3, "optional"), List.of(options.httpEndpointAsString(), options.httpProtocolIpv6AsString(),
        options.httpPutResponseHopLimit(), options.httpTokensAsString()));
    provider.delete(cluster, claim, instance.id());
  }

  @Test
  void connectionTrackingIsThePrimaryNetworkInterfacesConnectionTrackingSpecification() {
    var data = launchedWith(provider, l -> with(l, l.blockDeviceMappings(), new ConnectionTracking(600, 120, 45), null, null, null));
    assertEquals(1, data.networkInterfaces().size(), data.toString());
    var primary = data.networkInterfaces().getFirst();
    assertEquals(0, primary.deviceIndex());
    assertEquals(List.of(network.securityGroupId()), primary.groups(), "EC2 takes the groups on the interface when there is one");
    assertTrue(data.securityGroupIds().isEmpty(), data.toString());
    var tracking = primary.connectionTrackingSpecification();
    assertEquals(List.of(600, 120, 45), List.of(tracking.tcpEstablishedTimeout(), tracking.udpStreamTimeout(), tracking.udpTimeout()),
        data.toString());
    assertNull(primary.associatePublicIpAddress(), "the subnet still decides the public IP " + data);

    var onlyTcp = launchedWith(provider, l -> with(l, l.blockDeviceMappings(), new ConnectionTracking(600, null, null), null, null, null))
        .networkInterfaces().getFirst().connectionTrackingSpecification();
    assertEquals(600, onlyTcp.tcpEstablishedTimeout());
    assertNull(onlyTcp.udpTimeout(), "an unset timeout is EC2's default " + onlyTcp);
  }

  @Test
  void ipPrefixCountIsThePrimaryNetworkInterfacesIpv4PrefixCount() {
    var data = launchedWith(provider, l -> with(l, l.blockDeviceMappings(), null, 2, null, null));
    assertEquals(1, data.networkInterfaces().size(), data.toString());
    var primary = data.networkInterfaces().getFirst();
    assertEquals(2, primary.ipv4PrefixCount(), data.toString());
    assertEquals(List.of(network.securityGroupId()), primary.groups());
    assertNull(primary.connectionTrackingSpecification(), data.toString());
  }

  @Test
  void nestedVirtualizationIsTheTemplatesCpuOptions() {
    var enabled = launchedWith(provider, l -> with(l, l.blockDeviceMappings(), null, null, new CpuOptions("enabled"), null));
    assertEquals("enabled", enabled.cpuOptions().nestedVirtualizationAsString(), enabled.toString());
    assertTrue(enabled.networkInterfaces().isEmpty(), "CPU options need no network interface " + enabled);
    var disabled = launchedWith(provider, l -> with(l, l.blockDeviceMappings(), null, null, new CpuOptions("disabled"), null));
    assertEquals("disabled", disabled.cpuOptions().nestedVirtualizationAsString(), disabled.toString());
    assertNull(launchedWith(provider, l -> l).cpuOptions(), "no cpuOptions: EC2's default");
  }

  @Test
  void aVolumeInitializationRateIsOnItsEbsMapping() {
    var root = new BlockDeviceMapping("/dev/xvda", new BlockDevice(true, true, null, null, null, null, "20Gi", "gp3"), true);
    var fromSnapshot = new BlockDeviceMapping("/dev/xvdb", new BlockDevice(true, true, null, null, "snap-0123456789abcdef0", null, null,
        "gp3", 200), null);
    var data = launchedWith(provider, l -> with(l, List.of(root, fromSnapshot), null, null, null, null));
    Map<String, LaunchTemplateBlockDeviceMapping> devices = data.blockDeviceMappings().stream()
        .collect(java.util.stream.Collectors.toMap(LaunchTemplateBlockDeviceMapping::deviceName, d -> d));
    assertEquals(200, devices.get("/dev/xvdb").ebs().volumeInitializationRate(), data.toString());
    assertEquals("snap-0123456789abcdef0", devices.get("/dev/xvdb").ebs().snapshotId());
    assertNull(devices.get("/dev/xvda").ebs().volumeInitializationRate(), "unset: EBS's default rate " + data);
  }

  @Test
  void contextIsTheCreateFleetRequestsContext() {
    List<CreateFleetRequest> fleets = new ArrayList<>();
    Ec2Api recording = new DelegatingEc2Api(Ec2Api.of(aws.ec2())) {
      @Override
      public CreateFleetResponse createFleet(CreateFleetRequest request) {
        fleets.add(request);
        return super.createFleet(request);
      }
    };
    var recorded = new AwsCloudProvider(aws, recording, AwsLaunchOnMotoIT.settings(cluster), () -> "1.34", Clock.systemUTC());

    launchedWith(recorded, l -> with(l, l.blockDeviceMappings(), null, null, null, "cr-context"));
    launchedWith(recorded, l -> l);

    assertEquals(2, fleets.size());
    assertEquals("cr-context", fleets.getFirst().context());
    assertNull(fleets.getLast().context(), "no context: none sent");
  }
}

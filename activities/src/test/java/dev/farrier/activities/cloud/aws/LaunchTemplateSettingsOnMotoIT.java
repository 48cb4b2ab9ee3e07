package dev.farrier.activities.cloud.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.cloud.LaunchRequest;
import dev.farrier.activities.cloud.NodeClassLaunch;
import dev.farrier.activities.crd.BlockDevice;
import dev.farrier.activities.crd.BlockDeviceMapping;
import dev.farrier.activities.crd.MetadataOptions;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateBlockDeviceMapping;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateInstanceMetadataOptions;
import software.amazon.awssdk.services.ec2.model.Tag;

/**
 * An EC2NodeClass's own block device mappings and metadata options, every field set away from its default, are what
 * the launch template says, read back from moto.
 */
class LaunchTemplateSettingsOnMotoIT extends MotoIT {
  private static MotoNetwork network;
  private static String cluster;
  private static AwsCloudProvider provider;

  @BeforeAll
  static void setUp() {
    cluster = unique("template-it");
    network = MotoNetwork.create(aws, cluster);
    provider = new AwsCloudProvider(aws, AwsLaunchOnMotoIT.settings(cluster), () -> "1.34", Clock.systemUTC());
  }

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

    var tags = aws.ec2().describeInstances(b -> b.instanceIds(instance.id())).reservations().getFirst().instances().getFirst().tags();
    String templateName = LaunchTemplateSpec.nameOf(cluster,
        tags.stream().filter(t -> t.key().equals(FarrierTags.LAUNCH_TEMPLATE)).map(Tag::value).findFirst().orElseThrow().split(",")[0]);
    var template = aws.ec2().describeLaunchTemplateVersions(b -> b.launchTemplateName(templateName).versions("$Latest"))
        .launchTemplateVersions().getFirst().launchTemplateData();
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
}

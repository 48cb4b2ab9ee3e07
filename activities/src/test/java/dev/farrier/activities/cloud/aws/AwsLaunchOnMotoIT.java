package dev.farrier.activities.cloud.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.LaunchRequest;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.farrier.activities.cloud.NodeClassLaunch;
import dev.farrier.activities.cloud.aws.userdata.MimeMultipart;
import dev.farrier.activities.crd.KubeletConfiguration;
import dev.farrier.model.Taint;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodeKubelet;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.ec2.model.CreateFleetRequest;
import software.amazon.awssdk.services.ec2.model.CreateFleetResponse;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateVersion;
import software.amazon.awssdk.services.ec2.model.Reservation;
import software.amazon.awssdk.services.ec2.model.Tag;

/**
 * Launch, reuse and terminate against moto: CreateFleet (instant), launch templates with their decoded user data,
 * DescribeInstances by tag, TerminateInstances. moto starts instances at once and keeps terminated ones visible;
 * it does not apply a template's block devices or instance profile to the instance, so those are asserted on the
 * template itself.
 */
class AwsLaunchOnMotoIT extends MotoIT {
  private static MotoNetwork network;
  private static String cluster;
  private static AwsCloudProvider provider;

  @BeforeAll
  static void setUp() {
    cluster = unique("launch-it");
    network = MotoNetwork.create(aws, cluster);
    provider = new AwsCloudProvider(aws, settings(cluster), () -> "1.34", Clock.systemUTC());
  }

  static AwsProviderSettings settings(String cluster) {
    return new AwsProviderSettings(cluster, REGION, "https://api.example.test", "Q0EtYnVuZGxl", "10.100.0.0/16", null, null, null);
  }

  static LaunchRequest request(String cluster, String claim, MotoNetwork network, String amiFamily, String userData, List<String> capacityTypes) {
    return request(cluster, claim, network, amiFamily, userData, capacityTypes, List.of("m5.large", "m5.xlarge"), null, null, null);
  }

  /** A launch of {@code instanceTypes} from a class with the given instance-store policy, public IP and monitoring. */
  static LaunchRequest request(String cluster, String claim, MotoNetwork network, String amiFamily, String userData, List<String> capacityTypes,
      List<String> instanceTypes, String instanceStorePolicy, Boolean associatePublicIPAddress, Boolean detailedMonitoring) {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put("Name", "default/" + claim);
    tags.put(WellKnown.TAG_OWNER, "farrier");
    tags.put(WellKnown.TAG_CLUSTER, cluster);
    tags.put(WellKnown.TAG_NODEPOOL, "default");
    tags.put(WellKnown.TAG_NODECLAIM, claim);
    tags.put(WellKnown.TAG_NODECLASS, "default");
    tags.put("team", "platform");
    var kubelet = new KubeletConfiguration(List.of("10.100.0.10"), 58, null, null, null, null, null, null, null, null, null, null);
    var launch = new NodeClassLaunch(amiFamily, network.subnets(), List.of(network.securityGroupId()), "farrier-node-profile", userData,
        kubelet, null, List.of(), Map.of("team", "platform"), new KubeletSettings(58, null, null, null, null), instanceStorePolicy,
        associatePublicIPAddress, detailedMonitoring);
    return new LaunchRequest(cluster, claim, "default", "default", instanceTypes, capacityTypes, List.of(),
        List.of(network.image()), tags, Map.of(WellKnown.NODEPOOL_LABEL, "default", "intent", "apps"),
        List.of(new Taint("dedicated", "apps", "NoSchedule")), launch);
  }

  private static List<software.amazon.awssdk.services.ec2.model.Instance> instancesOfClaim(String claim) {
    return aws.ec2().describeInstances(b -> b.filters(Filter.builder().name("tag:" + WellKnown.TAG_NODECLAIM).values(claim).build(),
            Filter.builder().name("tag:" + WellKnown.TAG_CLUSTER).values(cluster).build()))
        .reservations().stream().flatMap(r -> r.instances().stream()).toList();
  }

  private static LaunchTemplateVersion template(String name) {
    return aws.ec2().describeLaunchTemplateVersions(b -> b.launchTemplateName(name).versions("$Latest")).launchTemplateVersions().getFirst();
  }

  /** The template of the cheapest type (m5.large): the first the instance's tag lists. */
  private static String firstTemplate(String cluster, String tag) {
    return LaunchTemplateSpec.nameOf(cluster, tag.split(",")[0]);
  }

  private static String userData(String templateName) {
    return new String(Base64.getDecoder().decode(template(templateName).launchTemplateData().userData()), StandardCharsets.UTF_8);
  }

  /**
   * What drift compares with the class's resolved subnets and groups. moto's CreateFleet puts the instance in the
   * override's subnet but does not apply the template's security groups to it (it reads a key real templates do not
   * have), so the groups are read back from an instance RunInstances launched with them.
   */
  @Test
  void anInstanceReportsItsSubnetAndSecurityGroups() {
    String claim = unique("network");
    Instance launched = provider.create(request(cluster, claim, network, "AL2023", null, List.of("on-demand")));

    var subnetOfZone = network.subnets().stream().filter(s -> s.zone().equals(launched.zone())).findFirst().orElseThrow().id();
    assertEquals(subnetOfZone, launched.subnetId(), "the fleet's override for its zone");
    assertEquals(subnetOfZone, provider.get(launched.id()).orElseThrow().subnetId());
    provider.delete(cluster, claim, launched.id());

    String subnet = network.subnets().getFirst().id();
    String id = aws.ec2().runInstances(b -> b.imageId(network.image().id()).instanceType("m5.large").minCount(1).maxCount(1)
        .subnetId(subnet).securityGroupIds(network.securityGroupId())).instances().getFirst().instanceId();
    var described = provider.get(id).orElseThrow();
    assertEquals(List.of(subnet, List.of(network.securityGroupId())), List.of(described.subnetId(), described.securityGroupIds()));
    aws.ec2().terminateInstances(b -> b.instanceIds(id));
  }

  @Test
  void al2023LaunchTagsTheInstanceAndUsesATemplateWithNodeConfigMetadataAndBlockDeviceDefaults() throws Exception {
    String claim = unique("claim");
    Instance instance = provider.create(request(cluster, claim, network, "AL2023", null, List.of("on-demand")));

    assertEquals("m5.large", instance.instanceType(), "the cheapest ranked type");
    assertTrue(List.of("us-east-1a", "us-east-1b").contains(instance.zone()), instance.zone());
    assertEquals("aws:///" + instance.zone() + "/" + instance.id(), instance.providerId());
    assertEquals("on-demand", instance.capacityType());
    var described = instancesOfClaim(claim);
    assertEquals(1, described.size());
    Map<String, String> tags = described.getFirst().tags().stream().collect(java.util.stream.Collectors.toMap(Tag::key, Tag::value));
    assertEquals("farrier", tags.get(WellKnown.TAG_OWNER));
    assertEquals(cluster, tags.get(WellKnown.TAG_CLUSTER));
    assertEquals("default", tags.get(WellKnown.TAG_NODEPOOL));
    assertEquals(claim, tags.get(WellKnown.TAG_NODECLAIM));
    assertEquals("default/" + claim, tags.get("Name"));
    assertEquals("platform", tags.get("team"));
    List<String> templateHashes = List.of(tags.get(FarrierTags.LAUNCH_TEMPLATE).split(","));
    assertEquals(2, templateHashes.size(), "m5.large and m5.xlarge differ in kube-reserved cpu: one template each " + templateHashes);
    String templateName = firstTemplate(cluster, tags.get(FarrierTags.LAUNCH_TEMPLATE));
    assertEquals(network.image().id(), described.getFirst().imageId());

    var data = template(templateName).launchTemplateData();
    String userData = userData(templateName);
    assertTrue(userData.contains("Content-Type: application/node.eks.aws"), userData);
    assertTrue(userData.contains("kind: \"NodeConfig\""), userData);
    assertTrue(userData.contains("name: \"" + cluster + "\""), userData);
    assertTrue(userData.contains("apiServerEndpoint: \"https://api.example.test\""), userData);
    assertTrue(userData.contains("certificateAuthority: \"Q0EtYnVuZGxl\""), userData);
    assertTrue(userData.contains("cidr: \"10.100.0.0/16\""), userData);
    assertTrue(userData.contains("maxPods: 58"), userData);
    assertTrue(userData.contains("--node-labels=intent=apps,karpenter.sh/capacity-type=on-demand,karpenter.sh/nodepool=default"), userData);
    assertTrue(userData.contains("key: \"dedicated\""), userData);
    var config = new YAMLMapper().readTree(MimeMultipart.parse(userData).getLast().body()).at("/spec/kubelet/config");
    assertEquals("{\"key\":\"karpenter.sh/unregistered\",\"effect\":\"NoExecute\"}", config.at("/registerWithTaints/1").toString(),
        "registered tainted: " + userData);
    var m5large = provider.instanceTypes().stream().filter(t -> t.name().equals("m5.large")).findFirst().orElseThrow();
    var planned = NodeKubelet.of(m5large.capacity(EphemeralStorage.DEFAULT_BYTES), new KubeletSettings(58, null, null, null, null));
    assertEquals(planned.kubeReservedQuantities(), new YAMLMapper().convertValue(config.get("kubeReserved"), Map.class), userData);
    assertEquals(Map.of("cpu", "70m", "ephemeral-storage", "1Gi", "memory", "893Mi"), planned.kubeReservedQuantities(),
        "what the planner assumed for m5.large is what its template says");
    var eniTags = data.tagSpecifications().stream().filter(t -> t.resourceTypeAsString().equals("network-interface")).findFirst()
        .orElseThrow(() -> new AssertionError("the template tags network interfaces: " + data.tagSpecifications()));
    assertTrue(eniTags.tags().stream().anyMatch(t -> t.key().equals(WellKnown.TAG_CLUSTER) && t.value().equals(cluster)), eniTags.toString());
    assertEquals("required", data.metadataOptions().httpTokensAsString());
    assertEquals(1, data.metadataOptions().httpPutResponseHopLimit());
    assertEquals("enabled", data.metadataOptions().httpEndpointAsString());
    assertEquals(1, data.blockDeviceMappings().size());
    var root = data.blockDeviceMappings().getFirst();
    assertEquals("/dev/xvda", root.deviceName());
    assertEquals(20, root.ebs().volumeSize());
    assertEquals("gp3", root.ebs().volumeTypeAsString());
    assertTrue(root.ebs().encrypted());
    assertEquals("farrier-node-profile", data.iamInstanceProfile().name());
    assertEquals(List.of(network.securityGroupId()), data.securityGroupIds());
    assertEquals(network.image().id(), data.imageId());
  }

  @Test
  void al2BottlerocketAndCustomUserDataAreRenderedIntoTheirTemplates() {
    String al2 = launchedTemplate("AL2", "#!/bin/bash\necho hello-from-user\n");
    assertTrue(al2.contains("echo hello-from-user"), al2);
    assertTrue(al2.indexOf("echo hello-from-user") < al2.indexOf("/etc/eks/bootstrap.sh"), "the user's script runs first");
    assertTrue(al2.contains("/etc/eks/bootstrap.sh '" + cluster + "' --apiserver-endpoint 'https://api.example.test'"), al2);
    assertTrue(al2.contains("--kubelet-extra-args '--node-labels=intent=apps,karpenter.sh/capacity-type=on-demand,karpenter.sh/nodepool=default"
        + " --register-with-taints=dedicated=apps:NoSchedule,karpenter.sh/unregistered:NoExecute --max-pods=58"
        + " --kube-reserved=cpu=70m,ephemeral-storage=1Gi,memory=893Mi'"), al2);

    String bottlerocket = launchedTemplate("Bottlerocket", "[settings.host-containers.admin]\nenabled = true\n");
    for (String line : List.of("settings.host-containers.admin.enabled = true", "settings.kubernetes.cluster-name = '" + cluster + "'",
        "settings.kubernetes.api-server = 'https://api.example.test'", "settings.kubernetes.max-pods = 58",
        "settings.kubernetes.kube-reserved.cpu = '70m'", "settings.kubernetes.node-labels.intent = 'apps'",
        "settings.kubernetes.node-taints.dedicated = ['apps:NoSchedule']",
        "settings.kubernetes.node-taints.'karpenter.sh/unregistered' = [':NoExecute']")) {
      assertTrue(bottlerocket.contains(line), line + " in " + bottlerocket);
    }

    String custom = launchedTemplate("Custom", "#!/bin/bash\n/opt/join.sh\n");
    assertEquals("#!/bin/bash\n/opt/join.sh\n", custom, "Custom passes the user's user data through unchanged");
  }

  @Test
  void bottlerocketTemplatesGetAnOsAndADataVolume() {
    String claim = unique("claim");
    provider.create(request(cluster, claim, network, "Bottlerocket", null, List.of("on-demand")));
    String name = firstTemplate(cluster, tag(instancesOfClaim(claim).getFirst(), FarrierTags.LAUNCH_TEMPLATE));
    var devices = template(name).launchTemplateData().blockDeviceMappings();
    assertEquals(List.of("/dev/xvda", "/dev/xvdb"), devices.stream().map(d -> d.deviceName()).toList());
    assertEquals(List.of(4, 20), devices.stream().map(d -> d.ebs().volumeSize()).toList());
    assertTrue(devices.stream().allMatch(d -> d.ebs().encrypted()));
  }

  @Test
  void windowsTemplatesRunTheUsersPowerShellThenTheEksBootstrapOnA50GiRootVolume() {
    String claim = unique("windows");
    provider.create(request(cluster, claim, network, "Windows2022", "Write-Host \"hello-from-user\"", List.of("on-demand")));
    String name = firstTemplate(cluster, tag(instancesOfClaim(claim).getFirst(), FarrierTags.LAUNCH_TEMPLATE));
    assertEquals("<powershell>\nWrite-Host \"hello-from-user\"\n"
        + "[string]$EKSBootstrapScriptFile = \"$env:ProgramFiles\\Amazon\\EKS\\Start-EKSBootstrap.ps1\"\n"
        + "& $EKSBootstrapScriptFile -EKSClusterName '" + cluster + "' -APIServerEndpoint 'https://api.example.test'"
        + " -Base64ClusterCA 'Q0EtYnVuZGxl' -KubeletExtraArgs '--node-labels=intent=apps,karpenter.sh/capacity-type=on-demand,"
        + "karpenter.sh/nodepool=default --register-with-taints=dedicated=apps:NoSchedule,karpenter.sh/unregistered:NoExecute"
        + " --max-pods=58 --kube-reserved=cpu=70m,ephemeral-storage=1Gi,memory=893Mi' -DNSClusterIP '10.100.0.10'\n</powershell>",
        userData(name));
    var devices = template(name).launchTemplateData().blockDeviceMappings();
    assertEquals(List.of("/dev/sda1"), devices.stream().map(d -> d.deviceName()).toList());
    assertEquals(List.of(50), devices.stream().map(d -> d.ebs().volumeSize()).toList());
    assertEquals("gp3", devices.getFirst().ebs().volumeTypeAsString());
  }

  private String launchedTemplate(String family, String userData) {
    String claim = unique("claim");
    provider.create(request(cluster, claim, network, family, userData, List.of("on-demand")));
    return userData(firstTemplate(cluster, tag(instancesOfClaim(claim).getFirst(), FarrierTags.LAUNCH_TEMPLATE)));
  }

  private static String tag(software.amazon.awssdk.services.ec2.model.Instance instance, String key) {
    return instance.tags().stream().filter(t -> t.key().equals(key)).map(Tag::value).findFirst().orElseThrow();
  }

  @Test
  void theSameConfigurationReusesOneTemplateAndAnUnusedTemplateIsDeleted() throws InterruptedException {
    String own = unique("reuse-it");
    var reuseProvider = new AwsCloudProvider(aws, settings(own), () -> "1.34", Clock.systemUTC());
    Instance first = reuseProvider.create(request(own, unique("claim"), network, "AL2023", null, List.of("on-demand")));
    Instance second = reuseProvider.create(request(own, unique("claim"), network, "AL2023", null, List.of("on-demand")));
    Instance other = reuseProvider.create(request(own, unique("claim"), network, "AL2023", "#!/bin/bash\necho other\n", List.of("on-demand")));

    assertNotEquals(first.id(), second.id());
    String template = first.tags().get(FarrierTags.LAUNCH_TEMPLATE);
    assertEquals(template, second.tags().get(FarrierTags.LAUNCH_TEMPLATE), "one template for one configuration");
    assertNotEquals(template, other.tags().get(FarrierTags.LAUNCH_TEMPLATE), "other user data, other template");
    var launchTemplates = new LaunchTemplates(Ec2Api.of(aws.ec2()));
    assertEquals(4, launchTemplates.list(own).size(), "two configurations, each with a template per kube-reserved (m5.large, m5.xlarge)");

    Thread.sleep(1100);
    assertEquals(List.of(), reuseProvider.deleteUnusedLaunchTemplates(own, Duration.ZERO), "every template is in use");
    reuseProvider.delete(own, null, first.id());
    reuseProvider.delete(own, null, second.id());
    assertEquals(names(own, template), reuseProvider.deleteUnusedLaunchTemplates(own, Duration.ZERO).stream().sorted().toList());
    assertEquals(names(own, other.tags().get(FarrierTags.LAUNCH_TEMPLATE)), launchTemplates.list(own).keySet().stream().sorted().toList());
    assertEquals(List.of(), reuseProvider.deleteUnusedLaunchTemplates(own, Duration.ZERO), "idempotent");
  }

  private static List<String> names(String cluster, String tag) {
    return java.util.Arrays.stream(tag.split(",")).map(h -> LaunchTemplateSpec.nameOf(cluster, h)).sorted().toList();
  }

  @Test
  void aRetryAfterALostCreateFleetResponseReturnsTheSameSingleInstance() {
    String claim = unique("claim");
    Ec2Api real = Ec2Api.of(aws.ec2());
    // The real moto call happens; only its response is lost on the way back, as with a dropped connection.
    Ec2Api losing = new DelegatingEc2Api(real) {
      @Override
      public CreateFleetResponse createFleet(CreateFleetRequest request) {
        real.createFleet(request);
        throw SdkClientException.create("connection reset after CreateFleet");
      }
    };
    var lossy = new AwsCloudProvider(aws, losing, settings(cluster), () -> "1.34", Clock.systemUTC());
    var failure = assertThrows(CloudProviderException.class, () -> lossy.create(request(cluster, claim, network, "AL2023", null, List.of("on-demand"))));
    assertTrue(failure.kind().retryable, "a lost response is retried");

    Instance retried = provider.create(request(cluster, claim, network, "AL2023", null, List.of("on-demand")));
    Instance again = provider.create(request(cluster, claim, network, "AL2023", null, List.of("on-demand")));

    assertEquals(retried.id(), again.id());
    var all = instancesOfClaim(claim);
    assertEquals(1, all.size(), "exactly one instance carries the claim's tag");
    assertEquals(retried.id(), all.getFirst().instanceId());
  }

  @Test
  void untaggedAndForeignInstancesAreNeverTerminated() {
    String untagged = aws.ec2().runInstances(b -> b.imageId(network.image().id()).minCount(1).maxCount(1).instanceType("m5.large")
        .subnetId(network.subnets().getFirst().id())).instances().getFirst().instanceId();
    String otherClusters = aws.ec2().runInstances(b -> b.imageId(network.image().id()).minCount(1).maxCount(1).instanceType("m5.large")
        .subnetId(network.subnets().getFirst().id()).tagSpecifications(t -> t.resourceType("instance").tags(
            Tag.builder().key(WellKnown.TAG_OWNER).value("farrier").build(),
            Tag.builder().key(WellKnown.TAG_CLUSTER).value("another-cluster").build(),
            Tag.builder().key(WellKnown.TAG_NODECLAIM).value("claim-x").build()))).instances().getFirst().instanceId();
    String mine = provider.create(request(cluster, unique("claim"), network, "AL2023", null, List.of("on-demand"))).id();

    for (String id : List.of(untagged, otherClusters)) {
      var refused = assertThrows(CloudProviderException.class, () -> provider.delete(cluster, "claim-x", id));
      assertEquals(CloudProviderException.Kind.NOT_OWNED, refused.kind());
      assertEquals("running", provider.get(id).orElseThrow().state(), id + " is untouched");
    }
    var wrongClaim = assertThrows(CloudProviderException.class, () -> provider.delete(cluster, "claim-x", mine));
    assertEquals(CloudProviderException.Kind.NOT_OWNED, wrongClaim.kind(), "a claim naming another claim's instance");
    assertEquals("running", provider.get(mine).orElseThrow().state());
  }

  @Test
  void terminatingATerminatedOrUnknownInstanceIsDone() {
    String claim = unique("claim");
    Instance instance = provider.create(request(cluster, claim, network, "AL2023", null, List.of("on-demand")));
    Instance first = provider.delete(cluster, claim, instance.id());
    assertTrue(List.of("shutting-down", "terminated").contains(first.state()), first.state());
    Instance second = provider.delete(cluster, claim, instance.id());
    assertTrue(List.of("shutting-down", "terminated").contains(second.state()), second.state());
    assertEquals("not-found", provider.delete(cluster, claim, "i-0123456789abcdef0").state());
    assertTrue(provider.get("i-0123456789abcdef0").isEmpty());
    assertFalse(provider.list(cluster).stream().anyMatch(i -> i.id().equals(instance.id())), "list skips terminated instances");
  }

  @Test
  void pricesComeFromTheShippedTableAndTheSpotPriceHistory() {
    var m5 = provider.instanceTypes().stream().filter(t -> t.name().equals("m5.large")).findFirst().orElseThrow();
    var onDemand = m5.offerings().stream().filter(o -> o.zone().equals("us-east-1a") && o.capacityType().equals("on-demand")).findFirst().orElseThrow();
    assertEquals(OnDemandPrices.load(REGION, null).get("m5.large"), onDemand.pricePerHour());
    var spot = m5.offerings().stream().filter(o -> o.zone().equals("us-east-1a") && o.capacityType().equals("spot")).findFirst().orElseThrow();
    // moto's DescribeSpotPriceHistory answers one fixed price for every offering.
    assertEquals(0.00001, spot.pricePerHour());
    assertEquals(2, m5.vcpu());
    assertEquals(8192, m5.memoryMiB());
  }

  /** The facts behind Karpenter's other instance labels come from DescribeInstanceTypes, as the simulated cloud's CSV has them. */
  @Test
  void instanceTypeFactsComeFromDescribeInstanceTypes() {
    var types = provider.instanceTypes();
    var g4dn = types.stream().filter(t -> t.name().equals("g4dn.8xlarge")).findFirst().orElseThrow();
    var labels = dev.farrier.activities.cloud.InstanceTypeLabels.of(g4dn);
    assertEquals(List.of("nitro", "intel", "2500", "900", "50000", "9500", "t4", "nvidia", "1", "16384", "true"), List.of(
        WellKnown.INSTANCE_HYPERVISOR_LABEL, WellKnown.INSTANCE_CPU_MANUFACTURER_LABEL, WellKnown.INSTANCE_CPU_SUSTAINED_CLOCK_SPEED_MHZ_LABEL,
        WellKnown.INSTANCE_LOCAL_NVME_LABEL, WellKnown.INSTANCE_NETWORK_BANDWIDTH_LABEL, WellKnown.INSTANCE_EBS_BANDWIDTH_LABEL,
        WellKnown.INSTANCE_GPU_NAME_LABEL, WellKnown.INSTANCE_GPU_MANUFACTURER_LABEL, WellKnown.INSTANCE_GPU_COUNT_LABEL,
        WellKnown.INSTANCE_GPU_MEMORY_LABEL, WellKnown.INSTANCE_ENCRYPTION_IN_TRANSIT_LABEL).stream().map(labels::get).toList());
    var inf2 = types.stream().filter(t -> t.name().equals("inf2.xlarge")).findFirst().orElseThrow();
    assertEquals(List.of("Inferentia2", "AWS", 1), List.of(inf2.facts().acceleratorName(), inf2.facts().acceleratorManufacturer(),
        inf2.facts().acceleratorCount()));
  }
}

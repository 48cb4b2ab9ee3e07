package dev.farrier.activities.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassStatus;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.ResolvedSecurityGroup;
import dev.farrier.activities.crd.ResolvedSubnet;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.InstanceProfileNames;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.activities.nodeclass.NodeClassImages;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input shows up as status conditions and Events on the real API server, and heals when fixed. */
class StatusRefresherIT extends ClusterIT {
  /** The cluster {@link KubeTestSupport#nodeClassYaml} selects subnets and security groups of. */
  private static final String CLUSTER = "test";

  private static Condition ready(EC2NodeClass nodeClass) {
    return Conditions.find(nodeClass.getStatus().conditionsOrEmpty(), EC2NodeClassStatus.READY).orElseThrow();
  }

  private static List<Event> warnings(String name) {
    return client.v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName()) && "Warning".equals(e.getType())).toList();
  }

  @Test
  void unresolvableAmiAndMissingNodeClassBecomeConditionsAndOneEventEachAndThePoolSaysWhichClassGenerationItSaw(@TempDir Path cloudDir) {
    var cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(cloudDir).withCluster(CLUSTER));
    var refresher = new StatusRefresher(cluster, cloud, CLUSTER, Clock.systemUTC());
    var className = KubeTestSupport.unique("bad-ami");
    var poolName = KubeTestSupport.unique("pool");
    var orphanName = KubeTestSupport.unique("orphan");
    KubeTestSupport.apply(client, KubeTestSupport.nodeClassYaml(className, "ami-0000000000000dead"));
    KubeTestSupport.apply(client, KubeTestSupport.nodePoolYaml(poolName, className));
    KubeTestSupport.apply(client, KubeTestSupport.nodePoolYaml(orphanName, "no-such-class"));

    refresher.refresh();
    refresher.refresh();

    var nodeClass = cluster.getNodeClass(className).orElseThrow();
    assertEquals(Condition.FALSE, ready(nodeClass).status());
    assertTrue(ready(nodeClass).message().contains("ami-0000000000000dead"), ready(nodeClass).message());
    assertEquals(1, warnings(className).size(), "one Event for the change, not one per pass");
    NodePool pool = cluster.getNodePool(poolName).orElseThrow();
    var classReady = Conditions.find(pool.getStatus().conditions(), StatusRefresher.NODE_CLASS_READY).orElseThrow();
    assertEquals("NodeClassNotReady", classReady.reason());
    NodePool orphan = cluster.getNodePool(orphanName).orElseThrow();
    assertEquals("NodeClassNotFound", Conditions.find(orphan.getStatus().conditions(), "Ready").orElseThrow().reason());
    assertEquals(1, warnings(orphanName).size());
    assertEquals(nodeClass.getMetadata().getGeneration(), pool.getStatus().nodeClassObservedGeneration());
    assertEquals(null, orphan.getStatus().nodeClassObservedGeneration(), "no class, no generation");

    var goodAmi = cloud.ssmParameter("/aws/service/eks/optimized-ami/1.34/amazon-linux-2/recommended/image_id").orElseThrow();
    client.genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass").withName(className).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"amiSelectorTerms\":[{\"id\":\"" + goodAmi + "\"}]}}");
    refresher.refresh();

    nodeClass = cluster.getNodeClass(className).orElseThrow();
    assertEquals(Condition.TRUE, ready(nodeClass).status());
    assertEquals(List.of(goodAmi), nodeClass.getStatus().amisOrEmpty().stream().map(a -> a.id()).toList());
    pool = cluster.getNodePool(poolName).orElseThrow();
    assertTrue(Conditions.isTrue(pool.getStatus().conditions(), "Ready"));
    assertEquals(2L, pool.getStatus().nodeClassObservedGeneration(), "the class's edit is seen");
    assertEquals(List.of(2L), nodeClass.getStatus().conditionsOrEmpty().stream().map(Condition::observedGeneration).distinct().toList(),
        "the class's conditions say which generation of its spec they were computed against");
    assertEquals(List.of(pool.getMetadata().getGeneration()),
        pool.getStatus().conditions().stream().map(Condition::observedGeneration).distinct().toList());
  }

  private static Condition condition(EC2NodeClass nodeClass, String type) {
    return Conditions.find(nodeClass.getStatus().conditionsOrEmpty(), type).orElseThrow(() -> new AssertionError("no " + type));
  }

  private static String nodeClassYaml(String name, String amiTerms, String subnetTerms, String groupTerms, String identity) {
    return """
        apiVersion: karpenter.k8s.aws/v1
        kind: EC2NodeClass
        metadata:
          name: %s
        spec:
          amiSelectorTerms:
        %s
          subnetSelectorTerms:
        %s
          securityGroupSelectorTerms:
        %s
          %s
        """.formatted(name, amiTerms.indent(4).stripTrailing(), subnetTerms.indent(4).stripTrailing(),
        groupTerms.indent(4).stripTrailing(), identity);
  }

  /** An al2023 class whose subnets and security groups are found by the cluster's discovery tag. */
  private static String discoveredNodeClassYaml(String name, String identity) {
    return nodeClassYaml(name, "- alias: al2023@latest", "- tags:\n    karpenter.sh/discovery: " + CLUSTER,
        "- tags:\n    karpenter.sh/discovery: " + CLUSTER, identity);
  }

  @Test
  void everySelectorResolvesIntoStatusWithReadyConditions(@TempDir Path cloudDir) {
    var cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(cloudDir).withCluster(CLUSTER));
    var refresher = new StatusRefresher(cluster, cloud, CLUSTER, Clock.systemUTC());
    var name = KubeTestSupport.unique("resolved");
    KubeTestSupport.apply(client, nodeClassYaml(name, "- alias: al2023@latest",
        "- tags:\n    karpenter.sh/discovery: " + CLUSTER, "- tags:\n    karpenter.sh/discovery: \"*\"\n- name: no-such-group",
        "role: KarpenterNodeRole-test"));

    refresher.refresh();

    var status = cluster.getNodeClass(name).orElseThrow().getStatus();
    var nodeClass = cluster.getNodeClass(name).orElseThrow();
    for (String type : List.of(EC2NodeClassStatus.AMIS_READY, EC2NodeClassStatus.SUBNETS_READY, EC2NodeClassStatus.SECURITY_GROUPS_READY,
        EC2NodeClassStatus.INSTANCE_PROFILE_READY, EC2NodeClassStatus.READY)) {
      assertEquals(Condition.TRUE, condition(nodeClass, type).status(), type + ": " + condition(nodeClass, type));
    }
    assertEquals(List.of("amd64", "amd64", "amd64", "arm64", "arm64"),
        status.amisOrEmpty().stream().map(a -> a.requirements().getFirst().values().getFirst()).sorted().toList(),
        "per architecture the standard and NVIDIA images, and amd64's Neuron image");
    assertEquals(Set.of(
            List.of("kubernetes.io/arch In [amd64]", "karpenter.k8s.aws/instance-accelerator-count DoesNotExist",
                "karpenter.k8s.aws/instance-gpu-count DoesNotExist"),
            List.of("kubernetes.io/arch In [amd64]", "karpenter.k8s.aws/instance-gpu-count Exists"),
            List.of("kubernetes.io/arch In [amd64]", "karpenter.k8s.aws/instance-accelerator-count Exists"),
            List.of("kubernetes.io/arch In [arm64]", "karpenter.k8s.aws/instance-accelerator-count DoesNotExist",
                "karpenter.k8s.aws/instance-gpu-count DoesNotExist"),
            List.of("kubernetes.io/arch In [arm64]", "karpenter.k8s.aws/instance-gpu-count Exists")),
        status.amisOrEmpty().stream().map(a -> a.requirements().stream()
            .map(r -> r.key() + " " + r.operator() + (r.values() == null ? "" : " " + r.values())).toList()).collect(Collectors.toSet()),
        "each image with the requirements of the types it is for, as Karpenter writes them");
    assertTrue(status.amisOrEmpty().stream().allMatch(a -> a.name().startsWith("amazon-eks-node-al2023-") && a.name().contains("-1.34-")), status.amis().toString());
    assertEquals(cloud.network().subnets().stream().map(s -> new ResolvedSubnet(s.id(), s.zone(), s.zoneId())).toList(), status.subnets());
    assertEquals(cloud.catalog().zones(), status.subnets().stream().map(ResolvedSubnet::zone).sorted().toList());
    assertEquals(List.of(new ResolvedSecurityGroup(cloud.network().securityGroups().getFirst().id(), CLUSTER + "-node")), status.securityGroups());
    assertEquals(InstanceProfileNames.managed("us-east-1", CLUSTER, name), status.instanceProfile());
    assertEquals("KarpenterNodeRole-test", cloud.instanceProfileRole(status.instanceProfile()).orElseThrow());
    assertEquals(List.of(), warnings(name));
    var resolved = cloud.resolveImages(NodeClassImages.terms(nodeClass));
    assertEquals(resolved.stream().collect(Collectors.groupingBy(Image::kubernetesArch, java.util.TreeMap::new, Collectors.mapping(Image::id, Collectors.toList()))), NodeClassImages.fromStatus(nodeClass),
        "drift planning reads back per arch what the refresher resolved");
  }

  @Test
  void aRoleThatDoesNotExistMakesInstanceProfileReadyFalseNamingItUntilTheRoleIsMade(@TempDir Path cloudDir) {
    var cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(cloudDir).withCluster(CLUSTER));
    var refresher = new StatusRefresher(cluster, cloud, CLUSTER, Clock.systemUTC());
    var name = KubeTestSupport.unique("no-role");
    KubeTestSupport.apply(client, discoveredNodeClassYaml(name, "role: KarpenterNodeRole-typo"));

    refresher.refresh();

    var nodeClass = cluster.getNodeClass(name).orElseThrow();
    var profile = condition(nodeClass, EC2NodeClassStatus.INSTANCE_PROFILE_READY);
    assertEquals(List.of(Condition.FALSE, "RoleNotFound"), List.of(profile.status(), profile.reason()));
    assertTrue(profile.message().contains("KarpenterNodeRole-typo") && profile.message().contains("does not exist"), profile.message());
    var ready = ready(nodeClass);
    assertEquals(List.of(Condition.FALSE, "RoleNotFound"), List.of(ready.status(), ready.reason()), "so planning launches nothing for it");
    assertEquals(null, nodeClass.getStatus().instanceProfile());
    assertTrue(cloud.instanceProfileRole(InstanceProfileNames.managed("us-east-1", CLUSTER, name)).isEmpty(), "no profile made");

    cloud.createRole("KarpenterNodeRole-typo");
    refresher.refresh();
    assertEquals(Condition.TRUE, ready(cluster.getNodeClass(name).orElseThrow()).status());
  }

  @Test
  void eachSelectorThatMatchesNothingIsNamedAndOneFailureDoesNotStopTheOthers(@TempDir Path cloudDir) {
    var cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(cloudDir).withCluster(CLUSTER));
    var refresher = new StatusRefresher(cluster, cloud, CLUSTER, Clock.systemUTC());
    var name = KubeTestSupport.unique("unresolved");
    KubeTestSupport.apply(client, nodeClassYaml(name, "- alias: windows2025@latest",
        "- tags:\n    karpenter.sh/discovery: nobody", "- name: " + CLUSTER + "-node", "instanceProfile: NoSuchProfile"));

    refresher.refresh();
    refresher.refresh();

    var nodeClass = cluster.getNodeClass(name).orElseThrow();
    var amis = condition(nodeClass, EC2NodeClassStatus.AMIS_READY);
    assertEquals(List.of(Condition.FALSE, "AMIsResolutionFailed"), List.of(amis.status(), amis.reason()));
    assertTrue(amis.message().contains("windows2025@latest") && amis.message().contains("requires Kubernetes 1.35"), amis.message());
    var subnets = condition(nodeClass, EC2NodeClassStatus.SUBNETS_READY);
    assertEquals(List.of(Condition.FALSE, "SubnetsNotFound"), List.of(subnets.status(), subnets.reason()));
    assertTrue(subnets.message().contains("subnetSelectorTerms matched no subnet") && subnets.message().contains("nobody"), subnets.message());
    var profile = condition(nodeClass, EC2NodeClassStatus.INSTANCE_PROFILE_READY);
    assertEquals(List.of(Condition.FALSE, "InstanceProfileResolutionFailed"), List.of(profile.status(), profile.reason()));
    assertTrue(profile.message().contains("NoSuchProfile") && profile.message().contains("does not exist"), profile.message());
    assertEquals(Condition.TRUE, condition(nodeClass, EC2NodeClassStatus.SECURITY_GROUPS_READY).status(), "resolved despite the others");
    assertEquals(List.of(cloud.network().securityGroups().getFirst().id()),
        nodeClass.getStatus().securityGroups().stream().map(ResolvedSecurityGroup::id).toList());
    var ready = ready(nodeClass);
    assertEquals(Condition.FALSE, ready.status());
    assertTrue(ready.message().contains("AMIsReady=False") && ready.message().contains("SubnetsReady=False")
        && ready.message().contains("InstanceProfileReady=False") && !ready.message().contains("SecurityGroupsReady"), ready.message());
    assertEquals(1, warnings(name).size(), "one Event for the change to NotReady");

    cloud.registerInstanceProfile("NoSuchProfile", "SomeRole");
    client.genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass").withName(name).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"amiSelectorTerms\":[{\"alias\":\"al2@latest\"}],\"subnetSelectorTerms\":[{\"tags\":{\"Name\":\"" + CLUSTER
            + "-private-us-east-1a\"}}]}}");
    refresher.refresh();

    nodeClass = cluster.getNodeClass(name).orElseThrow();
    assertEquals(Condition.TRUE, ready(nodeClass).status(), ready(nodeClass).toString());
    assertEquals(List.of("us-east-1a"), nodeClass.getStatus().subnets().stream().map(ResolvedSubnet::zone).toList());
    assertEquals("NoSuchProfile", nodeClass.getStatus().instanceProfile());
    assertEquals(1, client.v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName()) && "Normal".equals(e.getType())).count());
  }

  @Test
  void kubeletAmountsPastALongMakeTheClassItselfFailValidation(@TempDir Path cloudDir) {
    var cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(cloudDir).withCluster(CLUSTER));
    var refresher = new StatusRefresher(cluster, cloud, CLUSTER, Clock.systemUTC());
    var name = KubeTestSupport.unique("kubelet");
    KubeTestSupport.apply(client, discoveredNodeClassYaml(name,
        "role: KarpenterNodeRole-test\n  kubelet:\n    kubeReserved:\n      memory: \"1e30\""));

    refresher.refresh();
    refresher.refresh();

    var nodeClass = cluster.getNodeClass(name).orElseThrow();
    var validation = condition(nodeClass, EC2NodeClassStatus.VALIDATION_SUCCEEDED);
    assertEquals(List.of(Condition.FALSE, "ValidationFailed"), List.of(validation.status(), validation.reason()));
    assertTrue(validation.message().startsWith("spec.kubelet.kubeReserved.memory: '1e30'"), validation.message());
    assertEquals(Condition.TRUE, condition(nodeClass, EC2NodeClassStatus.AMIS_READY).status(), "resolved despite the kubelet");
    assertEquals(List.of(Condition.FALSE, "ValidationFailed"), List.of(ready(nodeClass).status(), ready(nodeClass).reason()));
    assertEquals(1, warnings(name).size(), "one Event for the change to NotReady");
  }

  @Test
  void capacityReservationSelectorTermsResolveIntoStatusCapacityReservationsWithTheirReadyCondition(@TempDir Path cloudDir) {
    var cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(cloudDir).withCluster(CLUSTER));
    var refresher = new StatusRefresher(cluster, cloud, CLUSTER, Clock.systemUTC());
    var odcr = cloud.createCapacityReservation("m5.xlarge", "us-east-1a", 3, "default", null, java.util.Map.of("team", "ml"));
    var block = cloud.createCapacityReservation("p5.48xlarge", "us-east-1b", 1, "capacity-block",
        java.time.Instant.now().plus(java.time.Duration.ofMinutes(30)), java.util.Map.of());
    cloud.createCapacityReservation("c5.large", "us-east-1a", 1, "default", null, java.util.Map.of("team", "web"));
    var name = KubeTestSupport.unique("reserved");
    KubeTestSupport.apply(client, discoveredNodeClassYaml(name, "role: KarpenterNodeRole-test").stripTrailing() + """

          capacityReservationSelectorTerms:
          - tags:
              team: ml
          - id: %s
        """.formatted(block.id()));

    refresher.refresh();

    var nodeClass = cluster.getNodeClass(name).orElseThrow();
    var reservations = nodeClass.getStatus().capacityReservationsOrEmpty();
    assertEquals(List.of(odcr.id(), block.id()).stream().sorted().toList(), reservations.stream().map(r -> r.id()).toList());
    var odcrStatus = reservations.stream().filter(r -> r.id().equals(odcr.id())).findFirst().orElseThrow();
    assertEquals(List.of("m5.xlarge", "us-east-1a", SimulatedCloud.OWNER_ID, "targeted", "default", "active"),
        List.of(odcrStatus.instanceType(), odcrStatus.availabilityZone(), odcrStatus.ownerID(), odcrStatus.instanceMatchCriteria(),
            odcrStatus.reservationType(), odcrStatus.state()));
    assertEquals(Boolean.FALSE, odcrStatus.interruptible());
    assertEquals(null, odcrStatus.endTime());
    var blockStatus = reservations.stream().filter(r -> r.id().equals(block.id())).findFirst().orElseThrow();
    assertEquals("capacity-block", blockStatus.reservationType());
    assertEquals("expiring", blockStatus.state(), "30 minutes before its end a Capacity Block is expiring");
    assertTrue(blockStatus.endTime() != null);
    Condition reservationsReady = condition(nodeClass, EC2NodeClassStatus.CAPACITY_RESERVATIONS_READY);
    assertEquals(Condition.TRUE, reservationsReady.status());
    assertEquals(Condition.TRUE, ready(nodeClass).status(), ready(nodeClass).message());
  }
}

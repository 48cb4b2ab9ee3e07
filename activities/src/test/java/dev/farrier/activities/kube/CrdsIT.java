package dev.farrier.activities.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.crd.Budget;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.Manifests;
import dev.farrier.activities.crd.MetadataOptions;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolHash;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** deploy/crds against a real kube-apiserver: they install, accept the examples and seeds, and validate. */
class CrdsIT extends ClusterIT {

  @Test
  void theDriftExampleIsAcceptedAndDefaulted() {
    for (Path file : List.of(Manifests.EXAMPLES.resolve("ec2nodeclass.yaml"), Manifests.EXAMPLES.resolve("nodepool.yaml"),
        Manifests.EXAMPLES.resolve("workload.yaml"))) {
      for (HasMetadata object : KubeTestSupport.load(client, file)) {
        client.resource(object).forceConflicts().serverSideApply();
      }
    }

    EC2NodeClass nodeClass = cluster.getNodeClass("latest-current-ami-template").orElseThrow();
    assertEquals(MetadataOptions.DEFAULT, nodeClass.getSpec().metadataOptions(), "the schema's default");
    assertEquals("ami-amd64prevami00000", nodeClass.getSpec().amiSelectorTerms().getFirst().id());
    NodePool pool = cluster.getNodePool("latest-current-ami").orElseThrow();
    assertEquals(List.of(new Budget("1", null, null, List.of("Drifted")), Budget.DEFAULT), pool.getSpec().disruption().budgets());
    NodePool fromFile = Manifests.read(Manifests.EXAMPLES.resolve("nodepool.yaml"), NodePool.class);
    assertEquals(NodePoolHash.of(fromFile), NodePoolHash.of(pool), "the hash does not change by a round trip through the API");
    assertTrue(cluster.listNodePools().stream().anyMatch(p -> p.getMetadata().getName().equals("latest-current-ami")));
    assertEquals(2, client.policy().v1().podDisruptionBudget().inNamespace("default").withName("inflate").get()
        .getSpec().getMinAvailable().getIntVal());
  }

  @Test
  void theSeed003V1ManifestsAreAcceptedWithAPartialMetadataOptionsCompleted() {
    for (String name : List.of("seed-003-v1-ec2nodeclass.yaml", "seed-003-v1-nodepool.yaml")) {
      for (HasMetadata object : KubeTestSupport.load(client, Manifests.TEST_MANIFESTS.resolve(name))) {
        client.resource(object).forceConflicts().serverSideApply();
      }
    }

    EC2NodeClass nodeClass = cluster.getNodeClass("default").orElseThrow();
    assertEquals(new MetadataOptions("enabled", "disabled", 2L, "required"), nodeClass.getSpec().metadataOptions());
    NodePool pool = cluster.getNodePool("default").orElseThrow();
    assertEquals(List.of(Budget.DEFAULT), pool.getSpec().disruption().budgets());
    assertEquals("0s", pool.getSpec().disruption().consolidateAfter());
  }

  @Test
  void anAliasTermMixedWithAnIdIsRejected() {
    HasMetadata invalid = KubeTestSupport.load(client, Manifests.TEST_MANIFESTS.resolve("nodeclass-alias-with-id.yaml")).getFirst();

    KubernetesClientException rejected = assertThrows(KubernetesClientException.class,
        () -> client.resource(invalid).create());

    assertEquals(422, rejected.getCode());
    assertTrue(rejected.getMessage().contains("'alias' is mutually exclusive, cannot be set with a combination of other amiSelectorTerms"),
        rejected.getMessage());
  }

  @Test
  void anSsmParameterTermStandsAloneInItsTerm() {
    EC2NodeClass nodeClass = Manifests.read(Manifests.EXAMPLES.resolve("ec2nodeclass.yaml"), EC2NodeClass.class);
    nodeClass.getMetadata().setName(KubeTestSupport.unique("ssm"));
    var spec = nodeClass.getSpec();
    var alone = new dev.farrier.activities.crd.AmiSelectorTerm(null, null, null, null, null, "/team/ami/prod");
    var withName = new dev.farrier.activities.crd.AmiSelectorTerm(null, null, "my-ami-*", null, null, "/team/ami/prod");
    nodeClass.setSpec(new dev.farrier.activities.crd.EC2NodeClassSpec(spec.amiFamily(), List.of(alone), spec.subnetSelectorTerms(),
        spec.securityGroupSelectorTerms(), spec.role(), null, null, null, null, null, null, null, null, null));
    assertEquals("/team/ami/prod", client.resource(nodeClass).create().getSpec().amiSelectorTermsOrEmpty().getFirst().ssmParameter());

    nodeClass.getMetadata().setName(KubeTestSupport.unique("ssm-and-name"));
    nodeClass.setSpec(new dev.farrier.activities.crd.EC2NodeClassSpec(spec.amiFamily(), List.of(withName), spec.subnetSelectorTerms(),
        spec.securityGroupSelectorTerms(), spec.role(), null, null, null, null, null, null, null, null, null));
    KubernetesClientException rejected = assertThrows(KubernetesClientException.class, () -> client.resource(nodeClass).create());

    assertEquals(422, rejected.getCode());
    assertTrue(rejected.getMessage().contains("'ssmParameter' is mutually exclusive"), rejected.getMessage());
  }

  @Test
  void aNodeClassWithBothRoleAndInstanceProfileIsRejected() {
    EC2NodeClass nodeClass = Manifests.read(Manifests.EXAMPLES.resolve("ec2nodeclass.yaml"), EC2NodeClass.class);
    nodeClass.getMetadata().setName(KubeTestSupport.unique("both"));
    var spec = nodeClass.getSpec();
    nodeClass.setSpec(new dev.farrier.activities.crd.EC2NodeClassSpec(spec.amiFamily(), spec.amiSelectorTerms(),
        spec.subnetSelectorTerms(), spec.securityGroupSelectorTerms(), "role", "profile", null, null, null, null,
        null, null, null, null));

    KubernetesClientException rejected = assertThrows(KubernetesClientException.class,
        () -> client.resource(nodeClass).create());

    assertTrue(rejected.getMessage().contains("must specify exactly one of ['role', 'instanceProfile']"), rejected.getMessage());
  }

  @Test
  void aWindowsAliasIsAdmittedWithItsOwnFamilyOrCustomAndRejectedWithAnother() {
    for (String family : new String[] {null, "Windows2022", "Custom"}) {
      client.resource(windowsClass("win", family)).create();
    }
    KubernetesClientException rejected = assertThrows(KubernetesClientException.class,
        () -> client.resource(windowsClass("win-al2023", "AL2023")).create());
    assertTrue(rejected.getMessage().contains("if set, amiFamily must be 'Windows2022' or 'Custom' when using a Windows2022 alias"),
        rejected.getMessage());
  }

  @Test
  void theLaunchKnobsAreAdmittedAndReadBackWithUpstreamsRules() {
    var fromSnapshot = new dev.farrier.activities.crd.BlockDeviceMapping("/dev/xvdb",
        new dev.farrier.activities.crd.BlockDevice(null, null, null, null, "snap-0123456789abcdef0", null, null, null, 200), null);
    var knobs = knobs("knobs", List.of(fromSnapshot), new dev.farrier.activities.crd.ConnectionTracking(600, null, 45));
    client.resource(knobs).create();
    var read = client.resources(EC2NodeClass.class).withName(knobs.getMetadata().getName()).get().getSpec();
    assertEquals(List.of(knobs.getSpec().connectionTracking(), 2, "enabled", "cr-context", 200), List.of(read.connectionTracking(),
        read.ipPrefixCount(), read.cpuOptions().nestedVirtualization(), read.context(),
        read.blockDeviceMappings().getFirst().ebs().volumeInitializationRate()));

    var noTimeout = assertThrows(KubernetesClientException.class, () -> client.resource(knobs("no-timeout", null,
        new dev.farrier.activities.crd.ConnectionTracking(null, null, null))).create());
    assertTrue(noTimeout.getMessage().contains("at least one of tcpEstablishedTimeout, udpStreamTimeout, or udpTimeout must be set"),
        noTimeout.getMessage());
    var sized = new dev.farrier.activities.crd.BlockDeviceMapping("/dev/xvdb",
        new dev.farrier.activities.crd.BlockDevice(null, null, null, null, null, null, "20Gi", null, 200), null);
    var noSnapshot = assertThrows(KubernetesClientException.class, () -> client.resource(knobs("no-snapshot", List.of(sized), null)).create());
    assertTrue(noSnapshot.getMessage().contains("snapshotID must be set when volumeInitializationRate is set"), noSnapshot.getMessage());
  }

  private static EC2NodeClass knobs(String name, List<dev.farrier.activities.crd.BlockDeviceMapping> devices,
      dev.farrier.activities.crd.ConnectionTracking tracking) {
    EC2NodeClass nodeClass = Manifests.read(Manifests.EXAMPLES.resolve("ec2nodeclass.yaml"), EC2NodeClass.class);
    nodeClass.getMetadata().setName(KubeTestSupport.unique(name));
    var s = nodeClass.getSpec();
    nodeClass.setSpec(new dev.farrier.activities.crd.EC2NodeClassSpec(s.amiFamily(), s.amiSelectorTerms(), s.subnetSelectorTerms(),
        s.securityGroupSelectorTerms(), s.role(), s.instanceProfile(), s.kubelet(), s.metadataOptions(), devices, s.instanceStorePolicy(),
        s.userData(), s.tags(), s.associatePublicIPAddress(), s.detailedMonitoring(), s.capacityReservationSelectorTerms(), tracking, 2,
        new dev.farrier.activities.crd.CpuOptions("enabled"), "cr-context"));
    return nodeClass;
  }

  private static EC2NodeClass windowsClass(String name, String amiFamily) {
    EC2NodeClass nodeClass = Manifests.read(Manifests.EXAMPLES.resolve("ec2nodeclass.yaml"), EC2NodeClass.class);
    nodeClass.getMetadata().setName(KubeTestSupport.unique(name));
    var spec = nodeClass.getSpec();
    nodeClass.setSpec(new dev.farrier.activities.crd.EC2NodeClassSpec(amiFamily,
        List.of(new dev.farrier.activities.crd.AmiSelectorTerm("windows2022@latest", null, null, null, null)),
        spec.subnetSelectorTerms(), spec.securityGroupSelectorTerms(), spec.role(), spec.instanceProfile(), null, null, null, null,
        null, null, null, null));
    return nodeClass;
  }
}

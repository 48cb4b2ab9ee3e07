package dev.farrier.activities.cloud.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.AmiSelectorTerm;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.LaunchRequest;
import dev.farrier.activities.cloud.NodeClassLaunch;
import dev.farrier.activities.crd.ResolvedSubnet;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.localstack.LocalStack;
import dev.farrier.localstack.LocalStackExtension;
import dev.farrier.model.Taint;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The simulated kubelet against a real kube-apiserver, with kwok keeping its Nodes Ready. */
@ExtendWith(LocalStackExtension.class)
class SimulatedKubeletIT {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir
  Path stateDir;

  private KubernetesClient client;
  private SimulatedCloud cloud;
  private final List<String> nodesToDelete = new ArrayList<>();

  @BeforeEach
  void setUp(LocalStack stack) throws Exception {
    client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(stack.kubeconfig()))).build();
    cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(stateDir).withDelays(Duration.ofSeconds(1), Duration.ofSeconds(1)));
  }

  @AfterEach
  void tearDown() {
    for (String name : nodesToDelete) {
      client.nodes().withName(name).delete();
    }
    client.close();
  }

  private Instance launch(String claim, String instanceType) {
    return launch(claim, instanceType, new AmiSelectorTerm(null, null, null, Map.of(), "al2023@latest"));
  }

  private Instance launch(String claim, String instanceType, AmiSelectorTerm imageTerm) {
    return launch(cloud, claim, instanceType, imageTerm);
  }

  private Instance launch(SimulatedCloud cloud, String claim, String instanceType, AmiSelectorTerm imageTerm) {
    List<Image> images = cloud.resolveImages(List.of(imageTerm));
    Instance instance = cloud.create(new LaunchRequest("sandbox", claim, "default", "default", List.of(instanceType),
        List.of("on-demand"), List.of("us-east-1b"), images,
        Map.of(WellKnown.TAG_OWNER, "farrier", WellKnown.TAG_CLUSTER, "sandbox", WellKnown.TAG_NODECLAIM, claim),
        Map.of(WellKnown.NODEPOOL_LABEL, "default", "team", "blue"),
        List.of(new Taint("dedicated", "blue", "NoSchedule"), WellKnown.UNREGISTERED_TAINT)));
    nodesToDelete.add(instance.privateDnsName());
    return instance;
  }

  /** An m5d.large (one 75 GB NVMe instance-store disk) of a class with {@code instanceStorePolicy}. */
  private Instance launchM5d(String claim, String instanceStorePolicy) {
    List<Image> images = cloud.resolveImages(List.of(new AmiSelectorTerm(null, null, null, Map.of(), "al2023@latest")));
    var launch = new NodeClassLaunch("AL2023", List.of(new ResolvedSubnet("subnet-b", "us-east-1b", null)), List.of("sg-1"), "profile",
        null, null, null, List.of(), Map.of(), KubeletSettings.DEFAULTS, instanceStorePolicy, null, null);
    Instance instance = cloud.create(new LaunchRequest("sandbox", claim, "default", "default", List.of("m5d.large"), List.of("on-demand"),
        List.of("us-east-1b"), images, Map.of(WellKnown.TAG_OWNER, "farrier", WellKnown.TAG_CLUSTER, "sandbox", WellKnown.TAG_NODECLAIM, claim),
        Map.of(WellKnown.NODEPOOL_LABEL, "default"), List.of(WellKnown.UNREGISTERED_TAINT), launch));
    nodesToDelete.add(instance.privateDnsName());
    return instance;
  }

  private static <T> T await(String what, Supplier<Optional<T>> probe) throws InterruptedException {
    Instant deadline = Instant.now().plus(WAIT);
    while (Instant.now().isBefore(deadline)) {
      Optional<T> value = probe.get();
      if (value.isPresent()) {
        return value.get();
      }
      Thread.sleep(200);
    }
    throw new AssertionError("timed out after " + WAIT + " waiting for " + what);
  }

  private Optional<Node> node(String name) {
    return Optional.ofNullable(client.nodes().withName(name).get());
  }

  private static List<String> taints(Node node) {
    return node.getSpec().getTaints().stream()
        .map(t -> t.getKey() + (t.getValue() == null ? "" : "=" + t.getValue()) + ":" + t.getEffect())
        .toList();
  }

  private static boolean ready(Node node) {
    return node.getStatus() != null && node.getStatus().getConditions() != null && node.getStatus().getConditions().stream()
        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  @Test
  void registersANodeForARunningInstanceThatKwokMakesReady() throws Exception {
    Instance instance = launch("kubelet-it-a", "m6g.xlarge");
    try (SimulatedKubelet kubelet = new SimulatedKubelet(client, cloud).start()) {
      Node node = await("node " + instance.privateDnsName(), () -> node(instance.privateDnsName()));

      assertEquals(instance.providerId(), node.getSpec().getProviderID());
      Map<String, String> labels = node.getMetadata().getLabels();
      assertEquals("default", labels.get(WellKnown.NODEPOOL_LABEL));
      assertEquals("blue", labels.get("team"));
      assertEquals("on-demand", labels.get(WellKnown.CAPACITY_TYPE_LABEL));
      assertEquals("arm64", labels.get(WellKnown.ARCH_LABEL));
      assertEquals("m6g.xlarge", labels.get(WellKnown.INSTANCE_TYPE_LABEL));
      assertEquals("us-east-1b", labels.get(WellKnown.ZONE_LABEL));
      assertEquals("us-east-1", labels.get(WellKnown.REGION_LABEL));
      assertEquals("m6g", labels.get(WellKnown.INSTANCE_FAMILY_LABEL));
      assertEquals(instance.privateDnsName(), labels.get(WellKnown.HOSTNAME_LABEL));
      // The API server's admission adds node.kubernetes.io/not-ready until the node is Ready; ours come on top.
      assertTrue(taints(node).containsAll(List.of("dedicated=blue:NoSchedule", "karpenter.sh/unregistered:NoExecute")), taints(node).toString());
      assertEquals(new Quantity("4"), node.getStatus().getCapacity().get("cpu"));
      assertEquals(new Quantity("58"), node.getStatus().getCapacity().get("pods"));
      String kubeletVersion = cloud.amis().findById(instance.imageId()).orElseThrow().kubeletVersion();
      assertEquals(kubeletVersion, node.getStatus().getNodeInfo().getKubeletVersion());
      assertEquals("arm64", node.getStatus().getNodeInfo().getArchitecture());

      Node readyNode = await("kwok to make " + instance.privateDnsName() + " Ready and the not-ready taint to go",
          () -> node(instance.privateDnsName()).filter(n -> ready(n) && !taints(n).contains("node.kubernetes.io/not-ready:NoSchedule")));
      assertEquals(List.of("dedicated=blue:NoSchedule", "karpenter.sh/unregistered:NoExecute"), taints(readyNode));
      assertEquals(new Quantity("58"), readyNode.getStatus().getCapacity().get("pods"), "kwok keeps the capacity");
      assertEquals(kubeletVersion, readyNode.getStatus().getNodeInfo().getKubeletVersion(), "kwok keeps the kubelet version");
    }
  }

  @Test
  void aRaid0NodeRegistersItsInstanceStoreAsEphemeralStorage() throws Exception {
    Instance raid0 = launchM5d("kubelet-it-raid0", "RAID0");
    Instance rootVolume = launchM5d("kubelet-it-root", null);
    try (SimulatedKubelet kubelet = new SimulatedKubelet(client, cloud).start()) {
      Node onInstanceStore = await("node " + raid0.privateDnsName(), () -> node(raid0.privateDnsName()));
      assertEquals(new Quantity("75G"), onInstanceStore.getStatus().getCapacity().get("ephemeral-storage"), "the 75 GB NVMe disk");
      // 75 GB less kube-reserved 1Gi and the 10% nodefs eviction threshold, as the planner counts it.
      assertEquals(new Quantity(Long.toString(75_000_000_000L - (1L << 30) - 7_500_000_000L)),
          onInstanceStore.getStatus().getAllocatable().get("ephemeral-storage"));

      Node onRootVolume = await("node " + rootVolume.privateDnsName(), () -> node(rootVolume.privateDnsName()));
      assertEquals(new Quantity("20Gi"), onRootVolume.getStatus().getCapacity().get("ephemeral-storage"), "no policy: the root volume");
    }
  }

  @Test
  void anInstanceOfAnImageThatNeverJoinsRunsWithoutANode() throws Exception {
    Instance broken = launch("kubelet-it-broken", "m5.large",
        new AmiSelectorTerm(null, "farrier-sandbox-broken-al2023-*-1.34-*", "self", Map.of(), null));
    Instance good = launch("kubelet-it-good", "m5.large");
    try (SimulatedKubelet kubelet = new SimulatedKubelet(client, cloud).start()) {
      // Launched first, the broken instance was running in every pass that saw the good one running.
      await("node " + good.privateDnsName(), () -> node(good.privateDnsName()));
      assertTrue(kubelet.registerNodes().isEmpty());
      assertTrue(node(broken.privateDnsName()).isEmpty(), "no node for an image that never joins");
      assertTrue(client.nodes().list().getItems().stream().noneMatch(n -> broken.providerId().equals(n.getSpec().getProviderID())));
      assertEquals("running", cloud.get(broken.id()).orElseThrow().state());
    }
  }

  @Test
  void aRestartedKubeletRegistersOnlyWhatIsMissing() throws Exception {
    Instance first = launch("kubelet-it-b", "m5.large");
    try (SimulatedKubelet kubelet = new SimulatedKubelet(client, cloud).start()) {
      await("node " + first.privateDnsName(), () -> node(first.privateDnsName()));
    }
    Instance second = launch("kubelet-it-c", "m5.large");
    // A fresh kubelet on a fresh cloud object: everything it knows comes from the state dir and the API server.
    SimulatedCloud reopened = new SimulatedCloud(cloud.config());
    SimulatedKubelet restarted = new SimulatedKubelet(client, reopened);
    List<String> registered = await("instance " + second.id() + " to be running",
        () -> Optional.of(restarted.registerNodes()).filter(names -> !names.isEmpty()));
    assertEquals(List.of(second.privateDnsName()), registered);
    assertTrue(restarted.registerNodes().isEmpty(), "a second pass registers nothing");
    assertEquals(1, client.nodes().list().getItems().stream()
        .filter(n -> first.providerId().equals(n.getSpec().getProviderID())).count());
  }

  /**
   * Clouds made in one process share its cluster (as the tests on the shared local stack do); two whose directories
   * derive the same network used to give their first instances one Node name, and the second instance never got a
   * Node, so whatever waited for it waited forever.
   */
  @Test
  void twoCloudsOnOneClusterWhoseDirectoriesDeriveOneNetworkBothGetTheirNodes() throws Exception {
    List<Path> dirs = StateStoreTest.directoriesDerivingOneNetwork(stateDir);
    var image = new AmiSelectorTerm(null, null, null, Map.of(), "al2023@latest");
    List<Instance> instances = new ArrayList<>();
    List<SimulatedKubelet> kubelets = new ArrayList<>();
    try {
      for (Path dir : dirs) {
        var each = new SimulatedCloud(SimulatedCloudConfig.defaults(dir).withDelays(Duration.ofSeconds(1), Duration.ofSeconds(1)));
        instances.add(launch(each, "kubelet-it-network-" + instances.size(), "m5.large", image));
        kubelets.add(new SimulatedKubelet(client, each).start());
      }
      for (Instance instance : instances) {
        Node node = await("node " + instance.privateDnsName(), () -> node(instance.privateDnsName()));
        assertEquals(instance.providerId(), node.getSpec().getProviderID());
      }
    } finally {
      kubelets.forEach(SimulatedKubelet::close);
    }
  }
}

package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.simulated.AmiCatalog;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.model.PlannedPods;
import dev.farrier.model.WellKnown;
import dev.farrier.sandbox.BlueprintAmis;
import dev.farrier.sandbox.SandboxEnvironment;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's decisions drive the sandbox: pods with zone topology spread, hostname anti-affinity, a GPU request
 * and the same hostPort get nodes from Farrier that the real kube-scheduler then binds them to, in the zones, on the
 * hosts and of the instance types they need. The two pods asking for the same hostPort would fit one node by their
 * requests: Farrier plans each onto its own node (without its port check one of them stays pending).
 */
class SchedulingIT {
  @Test
  void spreadAntiAffinityGpuAndHostPortPodsGetTheNodesTheyNeed() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("scheduling"), "e2e-scheduling", 0)) {
      env.startWorker();
      var amis = new BlueprintAmis(AmiCatalog.load(SimulatedCloudConfig.DEFAULT_KUBERNETES_VERSION));
      String manifest = resource().replace("<<CLUSTER_NAME>>", env.cluster())
          .replace("<<AMD64AMI>>", amis.al2(SimulatedCloudConfig.DEFAULT_KUBERNETES_VERSION, "amd64"));
      KubernetesClient kube = env.kube();
      kube.load(new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8))).serverSideApply();

      try {
        E2e.await("8 pods running", E2e.TIMEOUT, () -> running(kube).size() == 8);
      } catch (AssertionError e) {
        throw new AssertionError(e.getMessage() + "\n" + describe(kube), e);
      }

      List<Pod> pods = running(kube);
      Set<String> spreadZones = new TreeSet<>();
      Set<String> spreadNodes = new TreeSet<>();
      for (Pod p : app(pods, "spread")) {
        spreadZones.add(label(kube, p, WellKnown.ZONE_LABEL));
        spreadNodes.add(p.getSpec().getNodeName());
      }
      assertEquals(3, spreadZones.size(), "one spread replica per zone: " + spreadZones);
      List<Pod> anti = app(pods, "anti");
      assertNotEquals(anti.get(0).getSpec().getNodeName(), anti.get(1).getSpec().getNodeName(), "anti-affinity replicas share a node");
      List<Pod> agents = app(pods, "agent");
      assertNotEquals(agents.get(0).getSpec().getNodeName(), agents.get(1).getSpec().getNodeName(), "same hostPort, same node");
      Set<String> agentUids = agents.stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
      for (var claim : kube.genericKubernetesResources("karpenter.sh/v1", "NodeClaim").list().getItems()) {
        long planned = PlannedPods.uids(claim.getMetadata().getAnnotations()).stream().filter(agentUids::contains).count();
        assertTrue(planned <= 1, "claim " + claim.getMetadata().getName() + " was planned for both agents");
      }
      Pod gpu = app(pods, "gpu").getFirst();
      Node gpuNode = kube.nodes().withName(gpu.getSpec().getNodeName()).get();
      assertEquals("gpu", gpuNode.getMetadata().getLabels().get(WellKnown.NODEPOOL_LABEL));
      assertTrue(gpuNode.getMetadata().getLabels().get(WellKnown.INSTANCE_TYPE_LABEL).startsWith("g"),
          "GPU pod on " + gpuNode.getMetadata().getLabels().get(WellKnown.INSTANCE_TYPE_LABEL));
      assertTrue(gpuNode.getStatus().getAllocatable().containsKey("nvidia.com/gpu"));
      // Only the GPU pod needed the GPU pool: every other pod runs on a general node.
      for (Pod p : pods) {
        if (!p.getMetadata().getLabels().get("app").equals("gpu")) {
          assertEquals("general", label(kube, p, WellKnown.NODEPOOL_LABEL), p.getMetadata().getName());
        }
      }
      E2e.assertInstancesMatchNodes(env);
    }
  }

  private static List<Pod> running(KubernetesClient kube) {
    return kube.pods().inNamespace("default").list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getSpec().getNodeName() != null
            && p.getStatus() != null && "Running".equals(p.getStatus().getPhase()))
        .filter(p -> Set.of("spread", "anti", "gpu", "agent").contains(Objects.toString(p.getMetadata().getLabels().get("app"))))
        .toList();
  }

  private static List<Pod> app(List<Pod> pods, String app) {
    return pods.stream().filter(p -> app.equals(p.getMetadata().getLabels().get("app"))).toList();
  }

  private static String label(KubernetesClient kube, Pod pod, String key) {
    return kube.nodes().withName(pod.getSpec().getNodeName()).get().getMetadata().getLabels().get(key);
  }

  private static String describe(KubernetesClient kube) {
    return kube.pods().inNamespace("default").list().getItems().stream()
        .map(p -> p.getMetadata().getName() + " node=" + p.getSpec().getNodeName() + " phase=" + p.getStatus().getPhase())
        .collect(Collectors.joining("\n"));
  }

  private static String resource() throws java.io.IOException {
    try (var in = SchedulingIT.class.getResourceAsStream("/e2e/scheduling.yaml")) {
      return new String(Objects.requireNonNull(in, "e2e/scheduling.yaml missing").readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}

package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.simulated.AmiCatalog;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.model.PlannedPods;
import dev.farrier.model.WellKnown;
import dev.farrier.sandbox.BlueprintAmis;
import dev.farrier.sandbox.SandboxEnvironment;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Two replicas asking for the same hostPort would fit one node by their requests; the kube-scheduler puts them on two
 * nodes, so Farrier must launch two: each claim is planned for one of them, and both run.
 */
class HostPortIT {
  @Test
  void twoPodsWithTheSameHostPortGetTwoNodes() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("host-ports"), "e2e-host-ports", 0)) {
      env.startWorker();
      var amis = new BlueprintAmis(AmiCatalog.load(SimulatedCloudConfig.DEFAULT_KUBERNETES_VERSION));
      String manifest = resource().replace("<<CLUSTER_NAME>>", env.cluster())
          .replace("<<AMD64AMI>>", amis.al2(SimulatedCloudConfig.DEFAULT_KUBERNETES_VERSION, "amd64"));
      KubernetesClient kube = env.kube();
      kube.load(new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8))).serverSideApply();

      try {
        E2e.await("2 agents running", E2e.TIMEOUT, () -> running(kube).size() == 2);
      } catch (AssertionError e) {
        throw new AssertionError(e.getMessage() + "\n" + describe(kube), e);
      }

      List<Pod> agents = running(kube);
      Set<String> nodes = agents.stream().map(p -> p.getSpec().getNodeName()).collect(Collectors.toSet());
      assertEquals(2, nodes.size(), "the two agents share a node: " + nodes);
      Set<String> agentUids = agents.stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
      List<GenericKubernetesResource> claims = kube.genericKubernetesResources("karpenter.sh/v1", "NodeClaim")
          .withLabel(WellKnown.NODEPOOL_LABEL, "ports").list().getItems();
      assertEquals(2, claims.size(), "one node per agent, none more: " + claims.stream().map(c -> c.getMetadata().getName()).toList());
      for (GenericKubernetesResource claim : claims) {
        long planned = PlannedPods.uids(claim.getMetadata().getAnnotations()).stream().filter(agentUids::contains).count();
        assertTrue(planned <= 1, "claim " + claim.getMetadata().getName() + " was planned for both agents");
      }
      E2e.assertInstancesMatchNodes(env);
    }
  }

  private static List<Pod> running(KubernetesClient kube) {
    return kube.pods().inNamespace("default").withLabel("app", "agent").list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getSpec().getNodeName() != null
            && p.getStatus() != null && "Running".equals(p.getStatus().getPhase()))
        .toList();
  }

  private static String describe(KubernetesClient kube) {
    return kube.pods().inNamespace("default").list().getItems().stream()
        .map(p -> p.getMetadata().getName() + " node=" + p.getSpec().getNodeName() + " phase=" + p.getStatus().getPhase())
        .collect(Collectors.joining("\n"));
  }

  private static String resource() throws java.io.IOException {
    try (var in = HostPortIT.class.getResourceAsStream("/e2e/host-ports.yaml")) {
      return new String(Objects.requireNonNull(in, "e2e/host-ports.yaml missing").readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}

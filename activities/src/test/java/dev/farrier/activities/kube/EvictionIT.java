package dev.farrier.activities.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.localstack.LocalStack;
import dev.farrier.localstack.LocalStackExtension;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Eviction against a real kube-apiserver with its disruption controller and scheduler: a Deployment on a
 * kwok-managed node, guarded by a PodDisruptionBudget that allows no disruption.
 */
@ExtendWith(LocalStackExtension.class)
class EvictionIT {
  private static final String APP = "inflate";
  private static KubernetesClient client;
  private static Cluster cluster;
  private static String namespace;
  private static String nodeName;

  @BeforeAll
  static void deployBehindAPdb(LocalStack stack) {
    client = KubeTestSupport.client(stack);
    cluster = new Fabric8Cluster(client);
    namespace = KubeTestSupport.unique("evict");
    nodeName = KubeTestSupport.unique("kwok");
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
    KubeTestSupport.createNode(client, KubeTestSupport.kwokNode(nodeName, "kwok://" + nodeName));
    KubeTestSupport.awaitTrue("node " + nodeName + " Ready", () -> cluster.getNode(nodeName)
        .map(n -> n.getStatus().getConditions() != null && n.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
        .orElse(false));
    client.apps().deployments().inNamespace(namespace).resource(deployment(2)).create();
    client.policy().v1().podDisruptionBudget().inNamespace(namespace).resource(pdb(2)).create();
    awaitPdbSettled(2);
  }

  @AfterAll
  static void cleanUp() {
    KubeTestSupport.deleteQuietly(() -> client.namespaces().withName(namespace).delete());
    KubeTestSupport.deleteQuietly(() -> cluster.deleteNode(nodeName));
    client.close();
  }

  @Test
  void anEvictionThePdbForbidsFailsNamingThePdb() {
    Pod pod = cluster.listPodsOnNode(nodeName).stream()
        .filter(p -> namespace.equals(p.getMetadata().getNamespace())).findFirst().orElseThrow();

    PdbBlockedException blocked = assertThrows(PdbBlockedException.class, () -> cluster.evictPod(pod));

    assertEquals(namespace, blocked.pdbNamespace());
    assertEquals(APP, blocked.pdbName());
    assertEquals(namespace + "/" + APP, blocked.pdbKey());
    assertEquals(pod.getMetadata().getName(), blocked.podName());
    assertTrue(blocked.retryAfter().isPositive());
    assertTrue(cluster.getPod(namespace, pod.getMetadata().getName()).isPresent(), "the pod stays");
    assertTrue(cluster.listPodDisruptionBudgets().stream().anyMatch(b -> namespace.equals(b.getMetadata().getNamespace())));
  }

  @Test
  void evictingOrDeletingAPodWithAnotherUidLeavesThePodAlone() throws PdbBlockedException {
    Pod pod = createLoner();
    Pod stale = new PodBuilder(pod).editMetadata().withUid("00000000-0000-0000-0000-000000000000").endMetadata().build();

    assertEquals(EvictionOutcome.GONE, cluster.evictPod(stale));
    assertFalse(cluster.deletePod(stale, 0L));

    assertEquals(pod.getMetadata().getUid(),
        cluster.getPod(namespace, pod.getMetadata().getName()).orElseThrow().getMetadata().getUid());
  }

  @Test
  void aPodTheSchedulerCannotPlaceIsPending() {
    String name = KubeTestSupport.unique("pending");
    client.pods().inNamespace(namespace).resource(new PodBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewSpec()
          .withNodeSelector(Map.of("node.kubernetes.io/instance-type", "no-such-type"))
          .addNewContainer().withName("c").withImage("pause").endContainer()
        .endSpec()
        .build()).create();

    KubeTestSupport.awaitTrue("pod " + name + " unschedulable", () -> cluster.listPendingPods().stream()
        .anyMatch(p -> name.equals(p.getMetadata().getName())));
  }

  @Test
  void aPodOutsideAnyPdbIsEvictedAndAForcedDeleteOfItIsDone() throws PdbBlockedException {
    Pod pod = createLoner();
    String name = pod.getMetadata().getName();

    assertEquals(EvictionOutcome.EVICTED, cluster.evictPod(pod));

    KubeTestSupport.awaitTrue("pod " + name + " gone", () -> cluster.getPod(namespace, name).isEmpty());
    assertEquals(EvictionOutcome.GONE, cluster.evictPod(pod));
    assertFalse(cluster.deletePod(pod, 0L));
  }

  /** A pod on the node that no PDB selects. */
  private static Pod createLoner() {
    String name = KubeTestSupport.unique("loner");
    return client.pods().inNamespace(namespace).resource(new PodBuilder()
        .withNewMetadata().withName(name).withLabels(Map.of("app", "loner")).endMetadata()
        .withNewSpec()
          .withNodeName(nodeName)
          .withTerminationGracePeriodSeconds(0L)
          .addNewContainer().withName("c").withImage("pause").endContainer()
        .endSpec()
        .build()).create();
  }

  private static void awaitPdbSettled(int healthy) {
    KubeTestSupport.awaitTrue("PDB " + APP + " observed with " + healthy + " healthy pods", () -> {
      PodDisruptionBudget pdb = client.policy().v1().podDisruptionBudget().inNamespace(namespace).withName(APP).get();
      return pdb.getStatus() != null && pdb.getStatus().getObservedGeneration() != null
          && pdb.getStatus().getObservedGeneration().equals(pdb.getMetadata().getGeneration())
          && pdb.getStatus().getCurrentHealthy() != null && pdb.getStatus().getCurrentHealthy() == healthy;
    });
  }

  private static Deployment deployment(int replicas) {
    return new DeploymentBuilder()
        .withNewMetadata().withName(APP).endMetadata()
        .withNewSpec()
          .withReplicas(replicas)
          .withNewSelector().addToMatchLabels("app", APP).endSelector()
          .withNewTemplate()
            .withNewMetadata().addToLabels("app", APP).endMetadata()
            .withNewSpec()
              .withNodeSelector(Map.of("kubernetes.io/hostname", nodeName))
              .withTerminationGracePeriodSeconds(0L)
              .addNewContainer()
                .withName(APP).withImage("public.ecr.aws/eks-distro/kubernetes/pause:3.7")
                .withNewResources().addToRequests("cpu", new Quantity("1")).endResources()
              .endContainer()
            .endSpec()
          .endTemplate()
        .endSpec()
        .build();
  }

  private static PodDisruptionBudget pdb(int minAvailable) {
    return new PodDisruptionBudgetBuilder()
        .withNewMetadata().withName(APP).endMetadata()
        .withNewSpec()
          .withMinAvailable(new IntOrString(minAvailable))
          .withNewSelector().addToMatchLabels("app", APP).endSelector()
        .endSpec()
        .build();
  }
}

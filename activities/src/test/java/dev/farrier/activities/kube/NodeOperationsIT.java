package dev.farrier.activities.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.localstack.LocalStack;
import dev.farrier.localstack.LocalStackExtension;
import dev.farrier.workflows.model.WellKnown;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Node writes against a real kube-apiserver: each converges, and a repeat changes nothing. */
@ExtendWith(LocalStackExtension.class)
class NodeOperationsIT {
  private static KubernetesClient client;
  private static Cluster cluster;
  private String name;

  @BeforeAll
  static void connect(LocalStack stack) {
    client = KubeTestSupport.client(stack);
    cluster = new Fabric8Cluster(client);
  }

  @AfterAll
  static void close() {
    client.close();
  }

  @BeforeEach
  void createNode() {
    name = KubeTestSupport.unique("node");
    KubeTestSupport.createNode(client, KubeTestSupport.kwokNode(name, "aws:///us-west-2a/i-" + name));
  }

  @AfterEach
  void deleteNode() {
    KubeTestSupport.deleteQuietly(() -> cluster.removeNodeFinalizer(name, WellKnown.TERMINATION_FINALIZER));
    KubeTestSupport.deleteQuietly(() -> cluster.deleteNode(name));
  }

  @Test
  void taintingTwiceLeavesOneTaintAndTheSecondSendsNothing() {
    assertTrue(cluster.addNodeTaint(name, WellKnown.DISRUPTED_TAINT));
    Node once = cluster.getNode(name).orElseThrow();

    assertFalse(cluster.addNodeTaint(name, WellKnown.DISRUPTED_TAINT));

    Node twice = cluster.getNode(name).orElseThrow();
    assertEquals(once.getSpec(), twice.getSpec());
    assertEquals(once.getMetadata().getResourceVersion(), twice.getMetadata().getResourceVersion());
    assertEquals(1, twice.getSpec().getTaints().stream()
        .filter(t -> t.getKey().equals(WellKnown.DISRUPTED_TAINT_KEY)).count());
    assertEquals("NoSchedule", twice.getSpec().getTaints().getFirst().getEffect());

    assertTrue(cluster.removeNodeTaint(name, WellKnown.DISRUPTED_TAINT));
    assertFalse(cluster.removeNodeTaint(name, WellKnown.DISRUPTED_TAINT));
    assertTrue(cluster.getNode(name).orElseThrow().getSpec().getTaints() == null
        || cluster.getNode(name).orElseThrow().getSpec().getTaints().stream()
            .noneMatch(t -> t.getKey().equals(WellKnown.DISRUPTED_TAINT_KEY)));
  }

  @Test
  void taintingKeepsOtherWritersTaints() {
    cluster.addNodeTaint(name, WellKnown.UNREGISTERED_TAINT);

    cluster.addNodeTaint(name, WellKnown.DISRUPTED_TAINT);
    cluster.removeNodeTaint(name, WellKnown.UNREGISTERED_TAINT);

    var taints = cluster.getNode(name).orElseThrow().getSpec().getTaints();
    assertEquals(1, taints.size());
    assertEquals(WellKnown.DISRUPTED_TAINT_KEY, taints.getFirst().getKey());
  }

  @Test
  void cordoningTwiceIsOneCordon() {
    assertTrue(cluster.cordonNode(name));
    Node once = cluster.getNode(name).orElseThrow();

    assertFalse(cluster.cordonNode(name));

    Node twice = cluster.getNode(name).orElseThrow();
    assertTrue(twice.getSpec().getUnschedulable());
    assertEquals(once.getSpec(), twice.getSpec());
    assertEquals(once.getMetadata().getResourceVersion(), twice.getMetadata().getResourceVersion());

    assertTrue(cluster.uncordonNode(name));
    assertFalse(cluster.uncordonNode(name));
    assertNull(cluster.getNode(name).orElseThrow().getSpec().getUnschedulable());
  }

  @Test
  void writesThatNeedTheNodeSayItIsMissingAndRemovalsDoNot() {
    String missing = KubeTestSupport.unique("missing");

    ObjectNotFoundException notFound = assertThrows(ObjectNotFoundException.class, () -> cluster.cordonNode(missing));

    assertEquals("Node", notFound.kind());
    assertFalse(cluster.uncordonNode(missing));
    assertFalse(cluster.removeNodeTaint(missing, WellKnown.DISRUPTED_TAINT));
    assertFalse(cluster.removeNodeFinalizer(missing, WellKnown.TERMINATION_FINALIZER));
    cluster.deleteNode(missing);
  }

  @Test
  void findsTheNodeByProviderId() {
    assertEquals(name, cluster.findNodeByProviderId("aws:///us-west-2a/i-" + name).orElseThrow().getMetadata().getName());
    assertTrue(cluster.findNodeByProviderId("aws:///us-west-2a/i-nothing").isEmpty());
  }

  @Test
  void patchingMetadataMergesAndRemoves() {
    assertTrue(cluster.patchNodeMetadata(name, Map.of(WellKnown.INITIALIZED_LABEL, "true"),
        Map.of(WellKnown.NODEPOOL_HASH_ANNOTATION, "123")));
    assertFalse(cluster.patchNodeMetadata(name, Map.of(WellKnown.INITIALIZED_LABEL, "true"), null));
    Map<String, String> removal = new HashMap<>();
    removal.put(WellKnown.NODEPOOL_HASH_ANNOTATION, null);
    assertTrue(cluster.patchNodeMetadata(name, null, removal));

    Node node = cluster.getNode(name).orElseThrow();
    assertEquals("true", node.getMetadata().getLabels().get(WellKnown.INITIALIZED_LABEL));
    assertEquals("kwok", node.getMetadata().getLabels().get("type"), "other labels stay");
    assertFalse(node.getMetadata().getAnnotations().containsKey(WellKnown.NODEPOOL_HASH_ANNOTATION));
    assertEquals("fake", node.getMetadata().getAnnotations().get(KubeTestSupport.KWOK_ANNOTATION));
  }

  @Test
  void removingTheFinalizerLetsADeletedNodeGo() {
    assertTrue(cluster.addNodeFinalizer(name, WellKnown.TERMINATION_FINALIZER));
    assertFalse(cluster.addNodeFinalizer(name, WellKnown.TERMINATION_FINALIZER));
    cluster.deleteNode(name);
    Node deleting = cluster.getNode(name).orElseThrow();
    assertTrue(deleting.getMetadata().getDeletionTimestamp() != null, "held by the finalizer");

    assertTrue(cluster.removeNodeFinalizer(name, WellKnown.TERMINATION_FINALIZER));

    KubeTestSupport.awaitTrue("node " + name + " gone", () -> cluster.getNode(name).isEmpty());
  }
}

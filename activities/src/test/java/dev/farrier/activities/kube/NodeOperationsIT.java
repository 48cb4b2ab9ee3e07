package dev.farrier.activities.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.localstack.LocalStack;
import dev.farrier.localstack.LocalStackExtension;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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

  private List<Taint> taints(String key) {
    List<Taint> taints = cluster.getNode(name).orElseThrow().getSpec().getTaints();
    return taints == null ? List.of() : taints.stream().filter(t -> key.equals(t.getKey())).toList();
  }

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

  // kwok and the node lifecycle controller write these nodes too (status heartbeats, not-ready taints), so the
  // assertions look at Farrier's own fields rather than at resourceVersions or whole taint lists.

  @Test
  void taintingTwiceLeavesOneTaintAndTheSecondSendsNothing() {
    assertTrue(cluster.addNodeTaint(name, WellKnown.DISRUPTED_TAINT));

    assertFalse(cluster.addNodeTaint(name, WellKnown.DISRUPTED_TAINT));

    List<Taint> disrupted = taints(WellKnown.DISRUPTED_TAINT_KEY);
    assertEquals(1, disrupted.size());
    assertEquals("NoSchedule", disrupted.getFirst().getEffect());
    assertTrue(cluster.removeNodeTaint(name, WellKnown.DISRUPTED_TAINT));
    assertFalse(cluster.removeNodeTaint(name, WellKnown.DISRUPTED_TAINT));
    assertTrue(taints(WellKnown.DISRUPTED_TAINT_KEY).isEmpty());
  }

  @Test
  void taintingKeepsOtherWritersTaints() {
    // The other writer, like every writer, retries on conflict (kwok and the node controller write the node too). It
    // writes the whole node with the resourceVersion it read (a PUT): a JSON patch computed from the read copy
    // addresses taints by index, and the node controller taking its not-ready taint away in between made it a 422.
    for (int attempt = 0; ; attempt++) {
      try {
        var node = client.nodes().withName(name).get();
        List<Taint> taints = new ArrayList<>(node.getSpec().getTaints() == null ? List.of() : node.getSpec().getTaints());
        taints.add(new Taint("NoSchedule", "example.com/other-writer", null, "x"));
        node.getSpec().setTaints(taints);
        client.nodes().resource(node).update();
        break;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt >= 10) {
          throw e;
        }
      }
    }
    cluster.addNodeTaint(name, WellKnown.UNREGISTERED_TAINT);

    cluster.addNodeTaint(name, WellKnown.DISRUPTED_TAINT);
    cluster.removeNodeTaint(name, WellKnown.UNREGISTERED_TAINT);

    assertEquals(1, taints(WellKnown.DISRUPTED_TAINT_KEY).size());
    assertEquals(1, taints("example.com/other-writer").size());
    assertTrue(taints(WellKnown.UNREGISTERED_TAINT_KEY).isEmpty());
  }

  @Test
  void cordoningTwiceIsOneCordon() {
    assertTrue(cluster.cordonNode(name));

    assertFalse(cluster.cordonNode(name));

    assertTrue(cluster.getNode(name).orElseThrow().getSpec().getUnschedulable());
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
  void registeringIsOneWriteOfLabelsFinalizerAndTaintAndARepeatSendsNothing() {
    cluster.addNodeTaint(name, WellKnown.UNREGISTERED_TAINT);
    cluster.addNodeTaint(name, WellKnown.DISRUPTED_TAINT);

    assertTrue(cluster.registerNode(name, Map.of(WellKnown.REGISTERED_LABEL, "true"), Map.of(WellKnown.NODEPOOL_HASH_ANNOTATION, "7"),
        WellKnown.TERMINATION_FINALIZER, WellKnown.UNREGISTERED_TAINT));

    assertFalse(cluster.registerNode(name, Map.of(WellKnown.REGISTERED_LABEL, "true"), Map.of(WellKnown.NODEPOOL_HASH_ANNOTATION, "7"),
        WellKnown.TERMINATION_FINALIZER, WellKnown.UNREGISTERED_TAINT));
    Node node = cluster.getNode(name).orElseThrow();
    assertEquals("true", node.getMetadata().getLabels().get(WellKnown.REGISTERED_LABEL));
    assertEquals("kwok", node.getMetadata().getLabels().get("type"), "other labels stay");
    assertEquals("7", node.getMetadata().getAnnotations().get(WellKnown.NODEPOOL_HASH_ANNOTATION));
    assertEquals(List.of(WellKnown.TERMINATION_FINALIZER), node.getMetadata().getFinalizers());
    assertTrue(taints(WellKnown.UNREGISTERED_TAINT_KEY).isEmpty());
    assertEquals(1, taints(WellKnown.DISRUPTED_TAINT_KEY).size(), "other taints stay");
    assertThrows(ObjectNotFoundException.class, () -> cluster.registerNode(KubeTestSupport.unique("missing"), Map.of(), Map.of(),
        WellKnown.TERMINATION_FINALIZER, WellKnown.UNREGISTERED_TAINT));
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

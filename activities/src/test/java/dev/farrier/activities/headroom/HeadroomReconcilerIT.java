package dev.farrier.activities.headroom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.Fabric8PlaceholderWorkloads;
import dev.farrier.activities.kube.KubeTestSupport;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The headroom pass on the real kube-apiserver: a pool's placeholders capped by its limits (said in its condition and a
 * Warning Event), a refused value on another pool that stops nothing of the first's, and the Deployment gone with the
 * annotation.
 */
class HeadroomReconcilerIT extends ClusterIT {
  private String namespace;
  private String capped;
  private String refused;

  @BeforeEach
  void create() {
    namespace = KubeTestSupport.unique("headroom");
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
    capped = KubeTestSupport.unique("capped");
    refused = KubeTestSupport.unique("refused");
    KubeTestSupport.apply(client, annotated(capped, "pods=4,cpu=1,memory=1Gi").replace("spec:\n  template:", "spec:\n  limits:\n    cpu: \"2\"\n  template:"));
    KubeTestSupport.apply(client, annotated(refused, "pods=4"));
  }

  @AfterEach
  void delete() {
    KubeTestSupport.deleteQuietly(() -> client.resources(NodePool.class).withName(capped).delete());
    KubeTestSupport.deleteQuietly(() -> client.resources(NodePool.class).withName(refused).delete());
    KubeTestSupport.deleteQuietly(() -> client.namespaces().withName(namespace).delete());
  }

  private static String annotated(String name, String headroom) {
    return KubeTestSupport.nodePoolYaml(name, "default").replace("  name: " + name + "\n",
        "  name: " + name + "\n  annotations:\n    farrier.dev/headroom: \"" + headroom + "\"\n");
  }

  private Condition condition(String pool) {
    var status = client.resources(NodePool.class).withName(pool).get().getStatus();
    return status == null ? null : Conditions.find(status.conditions(), HeadroomReconciler.CONDITION).orElse(null);
  }

  private boolean event(String pool, String reason) {
    return client.v1().events().inAnyNamespace().list().getItems().stream()
        .anyMatch(e -> pool.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()) && "Warning".equals(e.getType()));
  }

  @Test
  void placeholdersAreCappedByTheLimitsABadValueStopsNoOtherPoolAndTheAnnotationsRemovalDeletesThem() {
    var reconciler = new HeadroomReconciler(cluster, new Fabric8PlaceholderWorkloads(client), namespace, "pause:test", Clock.systemUTC());
    reconciler.reconcile();

    var deployment = client.apps().deployments().inNamespace(namespace).withName(HeadroomPlaceholders.name(capped)).get();
    assertNotNull(deployment, "the capped pool's placeholders");
    assertEquals(2, deployment.getSpec().getReplicas(), "limits.cpu 2 leaves room for 2 of the 4 placeholders of 1 CPU");
    var cappedCondition = condition(capped);
    assertEquals(HeadroomReconciler.CAPPED, cappedCondition.reason(), cappedCondition.toString());
    assertEquals("2 of the 4 placeholders (cpu 1, memory 1Gi each) asked for fit within limits.cpu 2 (0 in use)", cappedCondition.message());
    assertTrue(event(capped, HeadroomReconciler.CAPPED), "a Warning Event says the limits hold it back");
    var priorityClass = client.scheduling().v1().priorityClasses().withName(HeadroomPlaceholders.PRIORITY_CLASS).get();
    assertEquals(-10, priorityClass.getValue());
    assertEquals("Never", priorityClass.getPreemptionPolicy());

    var refusal = condition(refused);
    assertEquals(Condition.FALSE, refusal.status());
    assertEquals(HeadroomReconciler.INVALID, refusal.reason());
    assertTrue(refusal.message().startsWith("farrier.dev/headroom 'pods=4': each placeholder needs a size"), refusal.message());
    assertTrue(event(refused, HeadroomReconciler.INVALID), "a Warning Event names the annotation");
    assertNull(client.apps().deployments().inNamespace(namespace).withName(HeadroomPlaceholders.name(refused)).get());

    client.resources(NodePool.class).withName(capped).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"annotations\":{\"farrier.dev/headroom\":null}}}");
    reconciler.reconcile();
    KubeTestSupport.awaitTrue("the placeholder Deployment deleted",
        () -> client.apps().deployments().inNamespace(namespace).withName(HeadroomPlaceholders.name(capped)).get() == null);
    assertEquals(HeadroomReconciler.NOT_REQUESTED, condition(capped).reason());
  }
}

package dev.farrier.activities.headroom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimResources;
import dev.farrier.activities.crd.NodeClaimSpec;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.crd.NodeClassReference;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.RequirementWithMinValues;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.Fabric8PlaceholderWorkloads;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.util.List;
import java.util.Map;
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
    for (String pool : List.of(capped, refused)) {
      KubeTestSupport.deleteQuietly(() -> {
        cluster.removeNodeClaimFinalizer(pool + "-claim", WellKnown.TERMINATION_FINALIZER);
        cluster.deleteNodeClaim(pool + "-claim");
      });
    }
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

  private HeadroomReconciler reconciler() {
    return new HeadroomReconciler(cluster, new Fabric8PlaceholderWorkloads(client), namespace, "pause:test", Clock.systemUTC());
  }

  private int replicas(String pool) {
    return client.apps().deployments().inNamespace(namespace).withName(HeadroomPlaceholders.name(pool)).get().getSpec().getReplicas();
  }

  /** A NodeClaim launched for the pool: in its usage from its launch, its node not up yet. */
  private void launch(String pool, String cpu) {
    NodeClaim claim = new NodeClaim();
    claim.getMetadata().setName(pool + "-claim");
    claim.getMetadata().setLabels(Map.of(WellKnown.NODEPOOL_LABEL, pool));
    claim.getMetadata().setFinalizers(List.of(WellKnown.TERMINATION_FINALIZER));
    claim.setSpec(new NodeClaimSpec(List.of(new RequirementWithMinValues(WellKnown.INSTANCE_TYPE_LABEL, "In", List.of("m5.large"), null)),
        new NodeClaimResources(Map.of("cpu", new Quantity("1"))), null, null, NodeClassReference.ec2NodeClass("default"), null, null));
    cluster.createNodeClaimIfAbsent(claim);
    cluster.patchNodeClaimStatus(claim.getMetadata().getName(), new NodeClaimStatus("aws:///us-west-2a/i-0headroom", null, null,
        Map.of("cpu", new Quantity(cpu)), Map.of("cpu", new Quantity(cpu)), List.of(), null));
  }

  @Test
  void aNodeInFlightForThePlaceholdersDoesNotTakeThemBackAndAScaleIsPutBack() {
    var reconciler = reconciler();
    reconciler.reconcile();
    assertEquals(2, replicas(capped));

    launch(capped, "2");
    KubeTestSupport.awaitTrue("the claim in the reader's view", () -> cluster.listNodeClaims().stream()
        .anyMatch(c -> c.getStatus() != null && c.getStatus().capacity() != null && (capped + "-claim").equals(c.getMetadata().getName())));
    reconciler.reconcile();
    assertEquals(2, replicas(capped), "the node launched for the 2 pending placeholders is for them: they stay");
    assertEquals("2 of the 4 placeholders (cpu 1, memory 1Gi each) asked for fit within limits.cpu 2 (2 in use)", condition(capped).message());

    client.apps().deployments().inNamespace(namespace).withName(HeadroomPlaceholders.name(capped)).scale(7);
    reconciler.reconcile();
    assertEquals(2, replicas(capped), "a kubectl scale of the placeholders is put back");
  }

  @Test
  void placeholdersWaitingWhileThePoolIsAtALimitTheyDoNotRequestAreSaid() {
    client.resources(NodePool.class).withName(refused).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"annotations\":{\"farrier.dev/headroom\":\"pods=2,memory=1Gi\"}},\"spec\":{\"limits\":{\"cpu\":\"2\"}}}");
    var reconciler = reconciler();
    reconciler.reconcile();
    assertEquals(Condition.TRUE, condition(refused).status(), "room left: the placeholders get a node");

    launch(refused, "2");
    KubeTestSupport.awaitTrue("the claim in the reader's view", () -> cluster.listNodeClaims().stream()
        .anyMatch(c -> c.getStatus() != null && c.getStatus().capacity() != null && (refused + "-claim").equals(c.getMetadata().getName())));
    reconciler.reconcile();
    assertEquals(Condition.TRUE, condition(refused).status(), "a node on its way may be for them: not said to wait");

    cluster.patchNodeClaimStatus(refused + "-claim", NodeClaimStatus.ofConditions(
        Condition.of(NodeClaimStatus.INITIALIZED, Condition.TRUE, "Initialized", "", java.time.Instant.now())));
    KubeTestSupport.awaitTrue("the claim initialized in the reader's view", () -> cluster.listNodeClaims().stream()
        .anyMatch(c -> (refused + "-claim").equals(c.getMetadata().getName()) && c.getStatus() != null
            && Conditions.isTrue(c.getStatus().conditions(), NodeClaimStatus.INITIALIZED)));
    reconciler.reconcile();
    var waiting = condition(refused);
    assertEquals(HeadroomReconciler.CAPPED, waiting.reason(), waiting.toString());
    assertEquals("0 of the 2 placeholders (memory 1Gi each) run: the pool has reached limits.cpu 2 (2 in use); the others wait Pending",
        waiting.message());
  }

  @Test
  void aDeploymentThatIsNotFarriersIsNeverTakenOverNorDeletedAndPlaceholdersAreOwnedByTheirPool() {
    String takenName = HeadroomPlaceholders.name(refused);
    client.apps().deployments().inNamespace(namespace).resource(new DeploymentBuilder().withNewMetadata().withName(takenName)
        .addToLabels(WellKnown.HEADROOM_NODEPOOL_LABEL, refused).endMetadata().withNewSpec().withReplicas(0)
        .withNewSelector().addToMatchLabels("app", "users").endSelector().withNewTemplate().withNewMetadata().addToLabels("app", "users")
        .endMetadata().withNewSpec().addNewContainer().withName("c").withImage("users:1").endContainer().endSpec().endTemplate().endSpec()
        .build()).create();
    client.resources(NodePool.class).withName(refused).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"annotations\":{\"farrier.dev/headroom\":\"pods=1,cpu=100m\"}}}");
    var reconciler = reconciler();
    reconciler.reconcile();

    var taken = condition(refused);
    assertEquals(HeadroomReconciler.NAME_TAKEN, taken.reason(), taken.toString());
    assertEquals(Condition.FALSE, taken.status());
    var users = client.apps().deployments().inNamespace(namespace).withName(takenName).get();
    assertEquals("users:1", users.getSpec().getTemplate().getSpec().getContainers().getFirst().getImage(), "left as it is");

    client.resources(NodePool.class).withName(refused).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"annotations\":{\"farrier.dev/headroom\":null}}}");
    reconciler.reconcile();
    assertNotNull(client.apps().deployments().inNamespace(namespace).withName(takenName).get(), "not Farrier's: not deleted");

    var pool = client.resources(NodePool.class).withName(capped).get();
    var owner = client.apps().deployments().inNamespace(namespace).withName(HeadroomPlaceholders.name(capped)).get()
        .getMetadata().getOwnerReferences().getFirst();
    assertEquals(List.of(NodePool.KIND, capped, pool.getMetadata().getUid()), List.of(owner.getKind(), owner.getName(), owner.getUid()),
        "the pool owns its placeholders: the garbage collector deletes them with it");
    client.resources(NodePool.class).withName(capped).delete();
    KubeTestSupport.awaitTrue("the placeholders deleted with their pool by the garbage collector, no pass of Farrier's",
        () -> client.apps().deployments().inNamespace(namespace).withName(HeadroomPlaceholders.name(capped)).get() == null);
  }

  @Test
  void aStaticNodePoolIsRefusedHeadroom() {
    String fixed = KubeTestSupport.unique("static");
    KubeTestSupport.apply(client, annotated(fixed, "pods=1,cpu=100m").replace("spec:\n  template:", "spec:\n  replicas: 2\n  template:"));
    try {
      reconciler().reconcile();

      var refusal = condition(fixed);
      assertEquals(HeadroomReconciler.STATIC, refusal.reason(), String.valueOf(refusal));
      assertTrue(event(fixed, HeadroomReconciler.STATIC), "a Warning Event says why");
      assertNull(client.apps().deployments().inNamespace(namespace).withName(HeadroomPlaceholders.name(fixed)).get());
    } finally {
      KubeTestSupport.deleteQuietly(() -> client.resources(NodePool.class).withName(fixed).delete());
    }
  }

  @Test
  void thePriorityClassIsCheckedEveryPassRecreatedWhenGoneAndAForeignOneStopsThePlaceholders() {
    var reconciler = reconciler();
    reconciler.reconcile();
    var classes = client.scheduling().v1().priorityClasses();
    classes.withName(HeadroomPlaceholders.PRIORITY_CLASS).delete();
    KubeTestSupport.awaitTrue("the PriorityClass gone", () -> classes.withName(HeadroomPlaceholders.PRIORITY_CLASS).get() == null);
    reconciler.reconcile();
    assertNotNull(classes.withName(HeadroomPlaceholders.PRIORITY_CLASS).get(), "put back though nothing else changed");

    classes.withName(HeadroomPlaceholders.PRIORITY_CLASS).delete();
    KubeTestSupport.awaitTrue("the PriorityClass gone", () -> classes.withName(HeadroomPlaceholders.PRIORITY_CLASS).get() == null);
    try {
      classes.resource(new PriorityClassBuilder().withNewMetadata().withName(HeadroomPlaceholders.PRIORITY_CLASS).endMetadata()
          .withValue(1000).build()).create();
      reconciler.reconcile();
      var conflict = condition(capped);
      assertEquals(HeadroomReconciler.PRIORITY_CLASS_CONFLICT, conflict.reason(), conflict.toString());
      assertTrue(conflict.message().contains("is not Farrier's"), conflict.message());
      KubeTestSupport.awaitTrue("the placeholders that would preempt real pods deleted",
          () -> client.apps().deployments().inNamespace(namespace).withName(HeadroomPlaceholders.name(capped)).get() == null);
    } finally {
      classes.withName(HeadroomPlaceholders.PRIORITY_CLASS).delete();
    }
  }
}

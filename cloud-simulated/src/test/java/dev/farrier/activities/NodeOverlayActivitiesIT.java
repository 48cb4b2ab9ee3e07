package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.NodeOverlay;
import dev.farrier.activities.crd.NodeOverlayStatus;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.activities.status.StatusRefresher;
import dev.farrier.model.PodRef;
import dev.farrier.workflows.activities.PlanProvisioningRequest;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NodeOverlays on the real kube-apiserver with the simulated cloud: the planning activity prices instance types as the
 * overlays say, and the status loop writes each overlay's ValidationSucceeded and Ready, a conflict with a Warning
 * Event, which neither stops the other overlays nor the NodePool. Each overlay selects only this test's NodePool, so
 * the other tests sharing the API server plan on the cloud's prices.
 */
class NodeOverlayActivitiesIT extends ClusterIT {
  private SimulatedActivities activities;
  private final List<String> overlays = new ArrayList<>();

  @BeforeEach
  void start(@TempDir Path cloudDir) {
    activities = new SimulatedActivities(client, cluster, cloudDir);
  }

  @AfterEach
  void stop() {
    overlays.forEach(name -> client.resources(NodeOverlay.class).withName(name).delete());
    activities.close();
  }

  /** An overlay of this test's NodePool on {@code type}, setting {@code field} ({@code price: "0.001"}). */
  private String overlay(String prefix, int weight, String type, String field) {
    String name = KubeTestSupport.unique(prefix);
    KubeTestSupport.apply(client, KubeTestSupport.nodeOverlayYaml(name, weight, activities.nodePool, type, field));
    overlays.add(name);
    return name;
  }

  private Condition condition(String overlay, String type) {
    var status = client.resources(NodeOverlay.class).withName(overlay).get().getStatus();
    return Conditions.find(status.conditions(), type).orElseThrow(() -> new AssertionError(overlay + " has no " + type));
  }

  private List<String> events(String overlay, String reason) {
    return client.v1().events().inAnyNamespace().list().getItems().stream()
        .filter(e -> overlay.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()))
        .map(e -> e.getType() + " " + e.getInvolvedObject().getKind() + " " + e.getInvolvedObject().getApiVersion()).toList();
  }

  @Test
  void provisioningRanksFirstTheTypeAnOverlayMadeCheapest() {
    var pod = client.pods().resource(new PodBuilder().withNewMetadata().withName(KubeTestSupport.unique("overlaid")).withNamespace("default")
        .endMetadata().withNewSpec().withNodeSelector(Map.of("intent", activities.nodePool)).addNewContainer().withName("c")
        .withImage("pause").withNewResources().withRequests(Map.of("cpu", new Quantity("500m"), "memory", new Quantity("256Mi")))
        .endResources().endContainer().endSpec().build()).create();
    try {
      var before = activities.planning.planProvisioning(new PlanProvisioningRequest(SimulatedActivities.CLUSTER, "batch-1", List.of(ref(pod))));
      String cheapest = before.claims().getFirst().instanceTypes().getFirst();
      assertNotEquals("r5.2xlarge", cheapest);

      overlay("r5", 10, "r5.2xlarge", "price: \"0.001\"");
      var after = activities.planning.planProvisioning(new PlanProvisioningRequest(SimulatedActivities.CLUSTER, "batch-2", List.of(ref(pod))));

      assertEquals("r5.2xlarge", after.claims().getFirst().instanceTypes().getFirst(), after.toString());
    } finally {
      client.pods().resource(pod).delete();
    }
  }

  @Test
  void aConflictIsReportedOnTheOverlayLeftOutAndStopsNeitherTheOthersNorTheNodePool() {
    var refresher = new StatusRefresher(cluster, activities.cloud, SimulatedActivities.CLUSTER, Clock.systemUTC());
    // Of equal weight Karpenter takes the name later in the alphabet first: "b-" stands, "a-" conflicts with it.
    String first = overlay("b-markup", 5, "m5.large", "priceAdjustment: \"+10%\"");
    String second = overlay("a-markup", 5, "m5.large", "priceAdjustment: \"+20%\"");
    String other = overlay("c5-capacity", 5, "c5.large", "capacity: {example.com/fpga: \"1\"}");

    refresher.refresh();
    refresher.refresh();

    Condition conflict = condition(second, NodeOverlayStatus.VALIDATION_SUCCEEDED);
    assertEquals(List.of(Condition.FALSE, StatusRefresher.OVERLAY_CONFLICT), List.of(conflict.status(), conflict.reason()));
    assertTrue(conflict.message().startsWith("conflicts with NodeOverlay " + first + " of the same weight (5) on the price of m5.large"),
        conflict.message());
    assertEquals(List.of(Condition.FALSE, StatusRefresher.OVERLAY_CONFLICT, conflict.message()),
        List.of(condition(second, "Ready").status(), condition(second, "Ready").reason(), condition(second, "Ready").message()));
    assertEquals(client.resources(NodeOverlay.class).withName(second).get().getMetadata().getGeneration(), conflict.observedGeneration());
    for (String standing : List.of(first, other)) {
      assertEquals(List.of(Condition.TRUE, "Ready"), List.of(condition(standing, "Ready").status(), condition(standing, "Ready").reason()),
          standing);
      assertTrue(condition(standing, NodeOverlayStatus.VALIDATION_SUCCEEDED).isTrue(), standing);
    }
    assertEquals(List.of("Warning NodeOverlay karpenter.sh/v1alpha1"), events(second, StatusRefresher.OVERLAY_CONFLICT),
        "one Event, not one per pass");
    NodePool pool = client.resources(NodePool.class).withName(activities.nodePool).get();
    assertTrue(Conditions.isTrue(pool.getStatus().conditions(), "Ready"), "the NodePool is still Ready: " + pool.getStatus());

    // A higher weight resolves the conflict: the overlay is Ready again, and says so once.
    client.resources(NodeOverlay.class).withName(second).patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"weight\":6}}");
    refresher.refresh();

    assertTrue(condition(second, "Ready").isTrue(), condition(second, "Ready").toString());
    assertEquals(2L, condition(second, NodeOverlayStatus.VALIDATION_SUCCEEDED).observedGeneration());
    assertEquals(List.of("Normal NodeOverlay karpenter.sh/v1alpha1"), events(second, "Ready"));
  }

  private static PodRef ref(Pod pod) {
    return new PodRef(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), pod.getMetadata().getUid());
  }
}

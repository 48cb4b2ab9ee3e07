package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.status.StatusRefresher;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When every offering a NodePool allows is out of capacity, the NodePool itself says so (condition CapacityAvailable
 * False and a Warning Event), not only its pods; when capacity comes back it says that too. Real kube-apiserver,
 * simulated cloud.
 */
class CapacityConditionIT extends ClusterIT {
  private SimulatedActivities activities;

  @BeforeEach
  void start(@TempDir Path cloudDir) {
    activities = new SimulatedActivities(client, cluster, cloudDir);
  }

  @AfterEach
  void stop() {
    activities.close();
  }

  private Condition capacity() {
    NodePool pool = client.resources(NodePool.class).withName(activities.nodePool).get();
    return Conditions.find(pool.getStatus().conditions(), StatusRefresher.CAPACITY_AVAILABLE).orElseThrow();
  }

  private List<String> events(String reason) {
    return client.v1().events().inAnyNamespace().list().getItems().stream()
        .filter(e -> activities.nodePool.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()))
        .map(e -> e.getType() + " " + e.getMessage()).toList();
  }

  @Test
  void aNodePoolOutOfEveryOfferingSaysSoAndSaysWhenCapacityIsBack() {
    var status = new StatusRefresher(cluster, activities.cloud, SimulatedActivities.CLUSTER, Clock.systemUTC());
    status.refresh();
    assertTrue(capacity().isTrue(), capacity().toString());
    assertEquals(List.of(), events("InsufficientCapacity"));

    // What launches leave behind when EC2 has no capacity for any offering: every one marked unavailable.
    activities.cloud.markUnavailable(o -> true, "InsufficientInstanceCapacity");
    status.refresh();
    status.refresh();

    Condition out = capacity();
    assertEquals(List.of("False", "InsufficientCapacity"), List.of(out.status(), out.reason()));
    assertTrue(out.message().startsWith("every one of the "), out.message());
    assertEquals(List.of("Warning " + out.message()), events("InsufficientCapacity"), "one Event, not one per pass");
    assertTrue(Conditions.isTrue(client.resources(NodePool.class).withName(activities.nodePool).get().getStatus().conditions(), "Ready"),
        "still Ready: the NodePool is fine, the cloud is out");

    activities.cloud.setOfferingsAvailable(o -> true, true);
    status.refresh();

    assertTrue(capacity().isTrue(), capacity().toString());
    assertEquals(1, events(StatusRefresher.CAPACITY_AVAILABLE).size(), "and one when capacity is back");
  }
}

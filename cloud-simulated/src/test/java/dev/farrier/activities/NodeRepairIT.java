package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.simulated.SimulatedKubelet;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.planner.Repair;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Node repair through the planning activity on the real kube-apiserver, with the simulated cloud and its kubelet: a
 * node made NotReady (Ready Unknown, as the node lifecycle controller says of a kubelet that stopped posting) past its
 * toleration gets a repair command; a NodePool over the unhealthy share gets none and one Event.
 */
class NodeRepairIT extends ClusterIT {
  private static final String CLUSTER = SimulatedActivities.CLUSTER;
  /** The annotation kwok manages Nodes by; without it kwok no longer sets the node Ready again. */
  private static final String KWOK_ANNOTATION = "kwok.x-k8s.io/node";

  private SimulatedActivities activities;
  private SimulatedKubelet kubelet;
  private final List<List<String>> created = new java.util.ArrayList<>();

  @BeforeEach
  void start(@TempDir Path cloudDir) {
    activities = new SimulatedActivities(client, cluster, cloudDir);
    kubelet = new SimulatedKubelet(client, activities.cloud).start();
  }

  @AfterEach
  void stop() {
    for (List<String> claimAndNode : created) {
      activities.claims.deleteNode(new NodeRef(CLUSTER, claimAndNode.get(1), claimAndNode.getFirst()));
      activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, claimAndNode.getFirst()));
    }
    activities.close();
    kubelet.close();
  }

  /** A claim of the test's NodePool launched, registered and initialized; returns claim and node names. */
  private List<String> initializedNode() {
    var name = KubeTestSupport.unique(activities.nodePool);
    var node = activities.initializedNode(name, null);
    created.add(List.of(name, node));
    return List.of(name, node);
  }

  /**
   * Takes the node from kwok (whose heartbeat would set it Ready again) and makes it NotReady since {@code ago}: Ready
   * Unknown, which the node lifecycle controller keeps as it is (it would turn a False into Unknown, with a new time).
   */
  private void notReadySince(String node, Duration ago) {
    againOnConflict(() -> client.nodes().withName(node).edit(n -> {
      n.getMetadata().getAnnotations().remove(KWOK_ANNOTATION);
      return n;
    }));
    againOnConflict(() -> client.nodes().withName(node).editStatus(n -> {
      for (NodeCondition c : n.getStatus().getConditions()) {
        if ("Ready".equals(c.getType())) {
          c.setStatus("Unknown");
          c.setReason("NodeStatusUnknown");
          c.setMessage("Kubelet stopped posting node status.");
          c.setLastTransitionTime(Instant.now().minus(ago).toString());
        }
      }
      return n;
    }));
  }

  /** An edit (read, change, write with the read resourceVersion) tried again when kwok or a controller wrote in between. */
  private static void againOnConflict(Runnable edit) {
    for (int attempt = 1; ; attempt++) {
      try {
        edit.run();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != java.net.HttpURLConnection.HTTP_CONFLICT || attempt == 5) {
          throw e;
        }
      }
    }
  }

  private DisruptionPlan plan(boolean nodeRepair) {
    return activities.planning.planDisruption(new PlanDisruptionRequest(CLUSTER, null, null, nodeRepair));
  }

  private static List<String> repaired(DisruptionPlan plan) {
    return plan.commands().stream().filter(c -> c.reason().equals(Repair.REASON)).map(DisruptionCommand::nodeClaim).toList();
  }

  private List<Event> repairBlockedEvents() {
    return client.v1().events().inAnyNamespace().list().getItems().stream()
        .filter(e -> activities.nodePool.equals(e.getInvolvedObject().getName()) && Repair.BLOCKED_EVENT_REASON.equals(e.getReason()))
        .toList();
  }

  @Test
  void aNodeNotReadyPastItsTolerationIsRepairedForcefullyOnlyWithTheGateOn() {
    var sick = initializedNode();
    initializedNode();
    initializedNode();

    notReadySince(sick.get(1), Duration.ofMinutes(29));
    assertEquals(List.of(), repaired(plan(true)), "within its 30m toleration");

    notReadySince(sick.get(1), Duration.ofMinutes(31));
    assertEquals(List.of(), repaired(plan(false)), "node repair is off unless asked for");
    DisruptionPlan plan = plan(true);

    assertEquals(List.of(sick.getFirst()), repaired(plan));
    // The claims' NodePool hash is unset, so they are drifted too: the repair is one command of the plan, not the first.
    DisruptionCommand command = plan.commands().stream().filter(c -> c.reason().equals(Repair.REASON)).findFirst().orElseThrow();
    assertTrue(command.forceful(), command.toString());
    assertEquals(0L, command.terminationGracePeriodSeconds());
    assertEquals(sick.get(1), command.nodeName());
    assertTrue(command.detail().startsWith("node condition Ready is Unknown since "), command.detail());
    assertEquals(List.of(), repairBlockedEvents());
  }

  @Test
  void aNodePoolOverTheUnhealthyShareRepairsNoneAndSaysSoOnce() {
    var first = initializedNode();
    var second = initializedNode();
    // Of 2 nodes 1 may be unhealthy (20%, rounded up); both are.
    notReadySince(first.get(1), Duration.ofMinutes(31));
    notReadySince(second.get(1), Duration.ofMinutes(31));

    DisruptionPlan plan = plan(true);
    plan(true);

    assertEquals(List.of(), repaired(plan));
    List<Event> events = repairBlockedEvents();
    assertEquals(1, events.size(), events.toString());
    Event event = events.getFirst();
    assertEquals(List.of("Warning", "NodePool", "more than 20% of nodepool " + activities.nodePool + "'s nodes are unhealthy"
        + " (2 of 2; at most 1 may be): node repair is held for its nodes until fewer are"),
        List.of(event.getType(), event.getInvolvedObject().getKind(), event.getMessage()));
    assertEquals(1, event.getCount() == null ? 1 : event.getCount(), "not repeated every planning round");
  }
}

package dev.farrier.activities.rollout;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.workflows.activities.HealthObservation;
import dev.farrier.workflows.activities.HealthObservation.PodHealth;
import dev.farrier.workflows.activities.HealthRequest;
import dev.farrier.model.WorkloadRef;
import dev.farrier.model.ReconcilerSettings;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What {@code observeHealth} reports of the moved workloads' pods: all of them for a batch's gate, and for one
 * replacement's gate among others ({@code --rolling}) those on its new node and only the troubled ones elsewhere. The
 * cluster reads are a small fake over a list of pods (the real ones are read on the local stack by UpgradeCliIT).
 */
class ObserveHealthTest {
  private static final WorkloadRef WEB = new WorkloadRef("default", "ReplicaSet", "web");

  private static Pod pod(String name, String owner, String node, boolean ready, int restarts, String waiting) {
    var container = new ContainerStatusBuilder().withName("app").withRestartCount(restarts);
    if (waiting != null) {
      container.withState(new ContainerStateBuilder().withNewWaiting().withReason(waiting).endWaiting().build());
    }
    return new PodBuilder()
        .withNewMetadata().withNamespace("default").withName(name)
        .addNewOwnerReference().withKind("ReplicaSet").withName(owner).withController(true).endOwnerReference().endMetadata()
        .withNewSpec().withNodeName(node).endSpec()
        .withNewStatus().withPhase(node == null ? "Pending" : "Running")
        .addNewCondition().withType("Ready").withStatus(ready ? "True" : "False").endCondition()
        .withContainerStatuses(container.build()).endStatus()
        .build();
  }

  private static final List<Pod> PODS = List.of(
      pod("web-new", "web", "node-new", false, 0, "ContainerCreating"),
      pod("web-calm", "web", "node-a", true, 0, null),
      pod("web-moving", "web", "node-b", false, 0, null),
      pod("web-restarted", "web", "node-c", true, 2, null),
      pod("web-crashing", "web", "node-d", false, 4, "CrashLoopBackOff"),
      pod("web-pending", "web", null, false, 0, null),
      pod("api-elsewhere", "api", "node-new", true, 0, null));

  private static HealthObservation observe(boolean troubledElsewhereOnly) {
    ClusterReader reader = (ClusterReader) Proxy.newProxyInstance(ObserveHealthTest.class.getClassLoader(),
        new Class<?>[] {ClusterReader.class}, (proxy, method, args) -> switch (method.getName()) {
          case "listBoundPods" -> PODS.stream().filter(p -> p.getSpec().getNodeName() != null).toList();
          case "listPendingPods" -> PODS.stream().filter(p -> p.getSpec().getNodeName() == null).toList();
          case "getNode" -> Optional.of(new NodeBuilder().withNewMetadata().withName((String) args[0]).endMetadata()
              .withNewStatus().addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build());
          default -> throw new UnsupportedOperationException(method.getName());
        });
    var activities = new RolloutActivitiesImpl(reader, null, null, null, id -> false, ReconcilerSettings.DEFAULTS, claim -> java.util.Optional.empty());
    return activities.observeHealth(new HealthRequest("test", List.of("node-new"), List.of(WEB), troubledElsewhereOnly));
  }

  private static List<String> names(HealthObservation seen) {
    return seen.pods().stream().map(PodHealth::key).sorted().toList();
  }

  @Test
  void aBatchsGateSeesEveryPodOfTheMovedWorkloads() {
    assertEquals(List.of("default/web-calm", "default/web-crashing", "default/web-moving", "default/web-new",
        "default/web-pending", "default/web-restarted"), names(observe(false)));
  }

  @Test
  void oneReplacementsGateSeesThePodsOnItsNewNodeAndElsewhereOnlyThoseThatRestartedOrWait() {
    HealthObservation seen = observe(true);
    assertEquals(List.of("default/web-crashing", "default/web-new", "default/web-restarted"), names(seen));
    assertEquals(List.of(new HealthObservation.NodeHealth("node-new", true, true)), seen.nodes());
  }
}

package dev.farrier.activities.rollout;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.model.WorkloadRef;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WorkloadsTest {
  private static Pod pod(String name, String ownerKind, String ownerName, boolean controller, String phase) {
    var builder = new PodBuilder().withNewMetadata().withNamespace("shop").withName(name).endMetadata()
        .withNewStatus().withPhase(phase).endStatus();
    if (ownerKind != null) {
      builder.editMetadata().addNewOwnerReference().withKind(ownerKind).withName(ownerName).withController(controller)
          .withApiVersion("apps/v1").withUid("uid-" + ownerName).endOwnerReference().endMetadata();
    }
    return builder.build();
  }

  @Test
  void aPodsWorkloadIsItsControllerOnly() {
    assertEquals(Optional.of(new WorkloadRef("shop", "ReplicaSet", "web-1")), Workloads.of(pod("a", "ReplicaSet", "web-1", true, "Running")));
    assertEquals(Optional.empty(), Workloads.of(pod("b", "ReplicaSet", "web-1", false, "Running")), "an owner that is not its controller");
    assertEquals(Optional.empty(), Workloads.of(pod("c", null, null, false, "Running")), "a bare pod");
  }

  @Test
  void whatADrainMovesIsEachWorkloadOnceInOrderWithoutDaemonSetsOrFinishedPods() {
    var moved = Workloads.moved(List.of(
        pod("web-a", "ReplicaSet", "web-1", true, "Running"),
        pod("web-b", "ReplicaSet", "web-1", true, "Pending"),
        pod("db-0", "StatefulSet", "db", true, "Running"),
        pod("agent", "DaemonSet", "agent", true, "Running"),
        pod("job-done", "Job", "migrate", true, "Succeeded"),
        pod("job-failed", "Job", "backfill", true, "Failed"),
        pod("loner", null, null, false, "Running")));

    assertEquals(List.of(new WorkloadRef("shop", "ReplicaSet", "web-1"), new WorkloadRef("shop", "StatefulSet", "db")), moved);
  }
}

package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.model.PodRef;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.workflows.activities.PlanProvisioningRequest;
import dev.farrier.workflows.activities.PlanningActivities;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pending pod the kube-scheduler places by preemption ({@code status.nominatedNodeName}: it evicts lower-priority
 * pods, a headroom's placeholders, to make room) gets no node of its own, as Karpenter treats it as scheduled; the same
 * pod without the nomination does, and the cluster's pending pods leave it out. Read from the real kube-apiserver; the pods name another scheduler, so nothing but
 * this test writes their status.
 */
class PreemptingPodsIT extends ClusterIT {
  private SimulatedActivities activities;
  private PlanningActivities planning;

  @BeforeEach
  void start(@TempDir Path cloudDir) {
    activities = new SimulatedActivities(client, cluster, cloudDir);
    planning = activities.planning;
  }

  @AfterEach
  void stop() {
    activities.close();
  }

  private Pod pending(String prefix) {
    return client.pods().resource(new PodBuilder().withNewMetadata().withName(KubeTestSupport.unique(prefix)).withNamespace("default")
        .endMetadata().withNewSpec().withSchedulerName("not-the-kube-scheduler").withNodeSelector(Map.of("intent", activities.nodePool))
        .addNewContainer().withName("c").withImage("pause").withNewResources()
        .withRequests(Map.of("cpu", new Quantity("1"), "memory", new Quantity("1Gi"))).endResources().endContainer()
        .endSpec().build()).create();
  }

  private ProvisioningPlan plan(String batch, Pod pod) {
    var ref = new PodRef(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), pod.getMetadata().getUid());
    return planning.planProvisioning(new PlanProvisioningRequest(SimulatedActivities.CLUSTER, batch, List.of(ref)));
  }

  @Test
  void aPodNominatedToANodeByPreemptionIsLeftToTheSchedulerAndOneWithoutIsPlannedANode() {
    var preempting = pending("preempting");
    var plain = pending("plain");
    try {
      for (var pod : List.of(plain, preempting)) {
        client.pods().inNamespace("default").withName(pod.getMetadata().getName())
            .editStatus(p -> new PodBuilder(p).editOrNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled")
                .withStatus("False").withReason("Unschedulable").endCondition()
                .withNominatedNodeName(pod == preempting ? "node-with-placeholders" : null).endStatus().build());
      }
      var pendingNames = cluster.listPendingPods().stream().map(p -> p.getMetadata().getName()).toList();
      assertTrue(pendingNames.contains(plain.getMetadata().getName()), "the unschedulable pod is pending: " + pendingNames);
      assertFalse(pendingNames.contains(preempting.getMetadata().getName()), "the nominated one is the scheduler's: " + pendingNames);

      assertEquals(List.of(), plan("batch-preempting", preempting).claims(), "a preempting pod launches nothing");
      assertEquals(1, plan("batch-plain", plain).claims().size(), "the same pod without a nomination gets a node");
    } finally {
      List.of(preempting, plain).forEach(p -> client.pods().resource(p).withGracePeriod(0).delete());
    }
  }
}

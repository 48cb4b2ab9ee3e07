package dev.farrier.worker;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

/** Which pods the informer queues for a launch: unschedulable ones, not those the kube-scheduler places by preemption. */
class PendingPodInformerTest {
  private static Pod unschedulable(String nominatedNode) {
    return new PodBuilder().withNewMetadata().withName("web").withNamespace("default").withUid("u1").endMetadata()
        .withNewSpec().endSpec()
        .withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled").withStatus("False").withReason("Unschedulable")
        .endCondition().withNominatedNodeName(nominatedNode).endStatus().build();
  }

  @Test
  void anUnschedulablePodIsQueuedAndOneNominatedToANodeByPreemptionIsNot() {
    assertTrue(PendingPodInformer.unschedulable(unschedulable(null)));
    assertTrue(PendingPodInformer.unschedulable(unschedulable("")), "an empty nomination is none");
    assertFalse(PendingPodInformer.unschedulable(unschedulable("node-with-placeholders")),
        "the scheduler preempts placeholders there: no node of its own");
  }
}

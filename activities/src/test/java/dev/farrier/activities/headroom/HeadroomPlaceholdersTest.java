package dev.farrier.activities.headroom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.crd.NodePool;
import dev.farrier.planner.Headroom;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The placeholder Deployment: pinned to its pool, tolerating its taints, preempted by anything, never holding a drain. */
class HeadroomPlaceholdersTest {
  private static final NodePool POOL = Serialization.unmarshal("""
      apiVersion: karpenter.sh/v1
      kind: NodePool
      metadata: {name: batch}
      spec:
        template:
          spec:
            nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
            taints:
              - {key: dedicated, value: batch, effect: NoSchedule}
              - {key: spot-only, effect: NoExecute}
            requirements: []
      """, NodePool.class);

  @Test
  void theDeploymentHoldsTheAskedRoomOnThePoolsNodesAtTheHeadroomsPriority() {
    var d = HeadroomPlaceholders.deployment(POOL, "farrier", "pause:test", Headroom.ofPods(4, 1000, 2L << 30), 3);
    var pod = d.getSpec().getTemplate().getSpec();

    assertEquals("farrier-headroom-batch", d.getMetadata().getName());
    assertEquals("farrier", d.getMetadata().getNamespace());
    assertEquals(3, d.getSpec().getReplicas());
    assertEquals("Recreate", d.getSpec().getStrategy().getType());
    assertEquals(Map.of("karpenter.sh/nodepool", "batch"), pod.getNodeSelector());
    assertEquals("farrier-headroom", pod.getPriorityClassName());
    assertEquals(0L, pod.getTerminationGracePeriodSeconds());
    assertEquals(List.of(new Toleration("NoSchedule", "dedicated", "Equal", null, "batch"),
        new Toleration("NoExecute", "spot-only", "Exists", null, null)), pod.getTolerations());
    assertEquals(Map.of("cpu", new Quantity("1000m"), "memory", new Quantity(Long.toString(2L << 30))),
        pod.getContainers().getFirst().getResources().getRequests());
    assertEquals(Map.of(), pod.getContainers().getFirst().getResources().getLimits());
    assertEquals("batch", d.getSpec().getTemplate().getMetadata().getLabels().get("farrier.dev/headroom-nodepool"));
    assertEquals(Map.of(), d.getSpec().getTemplate().getMetadata().getAnnotations(), "no karpenter.sh/do-not-disrupt or any other hold");
  }

  @Test
  void thePriorityClassIsBelowEveryOrdinaryPodAndNeverPreempts() {
    var pc = HeadroomPlaceholders.priorityClass();
    assertEquals("farrier-headroom", pc.getMetadata().getName());
    assertEquals(-10, pc.getValue());
    assertEquals("Never", pc.getPreemptionPolicy());
    assertEquals(false, pc.getGlobalDefault());
  }

  @Test
  void onlyFarriersOwnNegativeNeverPreemptingPriorityClassMayHoldPlaceholders() {
    assertNull(HeadroomPlaceholders.priorityClassProblem(HeadroomPlaceholders.priorityClass()));
    var positive = new PriorityClassBuilder(HeadroomPlaceholders.priorityClass()).withValue(1000).build();
    assertTrue(HeadroomPlaceholders.priorityClassProblem(positive).contains("value 1000"));
    var preempting = new PriorityClassBuilder(HeadroomPlaceholders.priorityClass()).withPreemptionPolicy("PreemptLowerPriority").build();
    assertTrue(HeadroomPlaceholders.priorityClassProblem(preempting).contains("preemptionPolicy PreemptLowerPriority"));
    var foreign = new PriorityClassBuilder(HeadroomPlaceholders.priorityClass()).editMetadata().withLabels(Map.of()).endMetadata().build();
    assertTrue(HeadroomPlaceholders.priorityClassProblem(foreign).contains("is not Farrier's"));
  }

  @Test
  void onlyADeploymentLabelledAndNamedAsFarriersIsItsOwn() {
    var d = HeadroomPlaceholders.deployment(POOL, "farrier", "pause:test", Headroom.ofPods(1, 100, 0), 1);
    assertTrue(HeadroomPlaceholders.isFarriers(d));
    assertFalse(HeadroomPlaceholders.isFarriers(new DeploymentBuilder(d).editMetadata().withName("web").endMetadata().build()));
    assertFalse(HeadroomPlaceholders.isFarriers(new DeploymentBuilder(d).editMetadata()
        .withLabels(Map.of("farrier.dev/headroom-nodepool", "batch")).endMetadata().build()), "no managed-by farrier");
  }
}

package dev.farrier.activities.split;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.Toleration;
import dev.farrier.planner.CapacitySplit;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SplitWorkloadTest {
  @Test
  void aStatefulSetIsReadLikeADeploymentWithItsGateReplicasAndNodeSelector() {
    var sts = new StatefulSetBuilder().withNewMetadata().withName("db").withNamespace("data").withUid("u1")
        .withAnnotations(Map.of(CapacitySplit.ANNOTATION, "2")).endMetadata()
        .withNewSpec().withReplicas(3).withNewSelector().withMatchLabels(Map.of("app", "db")).endSelector()
        .withNewTemplate().withNewSpec().addNewSchedulingGate().withName(CapacitySplit.GATE).endSchedulingGate()
        .withNodeSelector(Map.of("intent", "data")).addNewToleration().withKey("dedicated").withOperator("Exists").endToleration().endSpec().endTemplate().endSpec().build();
    var w = SplitWorkload.of(sts);
    assertEquals("StatefulSet", w.kind());
    assertEquals("2", w.minimum());
    assertEquals(3, w.replicas());
    assertTrue(w.gated());
    assertEquals(Map.of("intent", "data"), w.nodeSelector());
    assertEquals(List.of(new Toleration("dedicated", "Exists", null, null)), w.tolerations(), "weighed against the NodePools' taints");
    assertEquals("apps/v1", w.reference().getApiVersion());
    assertEquals("StatefulSet", w.reference().getKind());
    assertEquals("u1", w.reference().getMetadata().getUid());
    assertEquals("StatefulSet data/db", w.toString());
  }

  @Test
  void aDeploymentWithoutTheAnnotationIsNoWorkloadAndOneWithoutTheGateIsReadUngated() {
    var plain = new DeploymentBuilder().withNewMetadata().withName("web").withNamespace("default").endMetadata()
        .withNewSpec().withNewTemplate().withNewSpec().endSpec().endTemplate().endSpec().build();
    assertNull(SplitWorkload.of(plain));
    var ungated = new DeploymentBuilder(plain).editMetadata().withAnnotations(Map.of(CapacitySplit.ANNOTATION, "30%")).endMetadata().build();
    var w = SplitWorkload.of(ungated);
    assertFalse(w.gated());
    assertEquals(1, w.replicas(), "spec.replicas unset reads as the API server's default");
  }
}

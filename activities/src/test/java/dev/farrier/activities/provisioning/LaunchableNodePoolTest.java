package dev.farrier.activities.provisioning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassStatus;
import dev.farrier.activities.crd.NodeClaimTemplate;
import dev.farrier.activities.crd.NodeClaimTemplateSpec;
import dev.farrier.activities.crd.NodeClassReference;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A valid NodePool gets new nodes only while its EC2NodeClass exists and is not marked not Ready. */
class LaunchableNodePoolTest {
  private static final Instant NOW = Instant.parse("2026-11-30T07:00:00Z");

  private static NodePool pool(String className) {
    var pool = new NodePool();
    pool.setMetadata(new ObjectMetaBuilder().withName("p").build());
    pool.setSpec(new NodePoolSpec(new NodeClaimTemplate(null, new NodeClaimTemplateSpec(List.of(), List.of(), List.of(),
        NodeClassReference.ec2NodeClass(className), null, null)), null, null, null));
    return pool;
  }

  private static EC2NodeClass nodeClass(List<Condition> conditions) {
    var nodeClass = new EC2NodeClass();
    nodeClass.setMetadata(new ObjectMetaBuilder().withName("c").build());
    if (conditions != null) {
      nodeClass.setStatus(new EC2NodeClassStatus(null, null, null, null, conditions));
    }
    return nodeClass;
  }

  @Test
  void aMissingClassIsNamedNotDereferenced() {
    assertEquals("EC2NodeClass gone does not exist", PlanningInputs.notLaunchable(pool("gone"), null));
  }

  @Test
  void aClassMarkedNotReadyGivesItsReason() {
    var notReady = nodeClass(List.of(Condition.of(EC2NodeClassStatus.READY, Condition.FALSE, "SubnetsNotFound",
        "no subnet matches subnetSelectorTerms", NOW)));
    assertEquals("EC2NodeClass c is not ready: no subnet matches subnetSelectorTerms", PlanningInputs.notLaunchable(pool("c"), notReady));
  }

  @Test
  void aReadyClassOrOneWhoseStatusIsNotWrittenYetIsLaunchedFor() {
    assertNull(PlanningInputs.notLaunchable(pool("c"), nodeClass(List.of(Condition.of(EC2NodeClassStatus.READY, Condition.TRUE, "Ready", "", NOW)))));
    assertNull(PlanningInputs.notLaunchable(pool("c"), nodeClass(null)));
    assertNull(PlanningInputs.notLaunchable(pool("c"), nodeClass(List.of(Condition.of(EC2NodeClassStatus.SUBNETS_READY, Condition.TRUE, "", "", NOW)))));
  }
}

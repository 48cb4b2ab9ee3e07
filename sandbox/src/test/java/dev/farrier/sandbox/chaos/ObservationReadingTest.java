package dev.farrier.sandbox.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.chaos.Observation.PodState;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the collector reads a pod and a PDB from the API server's objects. */
class ObservationReadingTest {
  @Test
  void aPodsReadinessDisruptionTargetOwnerDoNotDisruptAndTolerationAreRead() {
    var pod = new PodBuilder().withNewMetadata().withNamespace("kube-system").withName("agent-1").addToLabels("app", "agent")
        .addToAnnotations("karpenter.sh/do-not-disrupt", "true").withDeletionTimestamp("2026-11-30T12:00:00Z")
        .addNewOwnerReference().withKind("DaemonSet").withName("agent").withController(true).endOwnerReference().endMetadata()
        .withNewSpec().withNodeName("node-a").addNewToleration().withOperator("Exists").endToleration().endSpec()
        .withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus("True").endCondition()
        .addNewCondition().withType("DisruptionTarget").withStatus("True").withReason(PodState.EVICTION).endCondition().endStatus().build();
    assertEquals(new PodState("kube-system", "agent-1", "node-a", "Running", true, true, "DaemonSet", Map.of("app", "agent"), true, true,
        PodState.EVICTION), PodWatch.state(pod));
    var bare = new PodBuilder().withNewMetadata().withNamespace("default").withName("p").endMetadata().withNewSpec()
        .addNewToleration().withKey("example.com/gpu").withOperator("Exists").endToleration().endSpec().build();
    var read = PodWatch.state(bare);
    assertEquals(new PodState("default", "p", null, null, false, false, null, Map.of(), false, false, null), read);
    assertTrue(!read.healthy() && !read.disrupted());
  }

  @Test
  void aPdbsPercentagesResolveAgainstItsExpectedPodsRoundedUp() {
    var pdb = new PodDisruptionBudgetBuilder().withNewMetadata().withNamespace("default").withName("web").endMetadata()
        .withNewSpec().withMaxUnavailable(new IntOrString("25%")).withNewSelector().addToMatchLabels("app", "web").endSelector().endSpec()
        .withNewStatus().withExpectedPods(5).endStatus().build();
    var read = ObservationCollector.pdb(pdb);
    assertEquals(new Observation.Pdb("default", "web", Map.of("app", "web"), null, 2, 5), read);
    assertEquals(3, read.floor());
    assertEquals(2, ObservationCollector.resolve(new IntOrString("34%"), 5));
    assertEquals(4, ObservationCollector.resolve(new IntOrString(4), 5));
  }

  @Test
  void aPdbSelectingWithMatchExpressionsIsRefusedByName() {
    var pdb = new PodDisruptionBudgetBuilder().withNewMetadata().withNamespace("default").withName("odd").endMetadata()
        .withNewSpec().withMinAvailable(new IntOrString(1)).withNewSelector().addNewMatchExpression().withKey("app").withOperator("Exists")
        .endMatchExpression().endSelector().endSpec().build();
    var error = assertThrows(IllegalStateException.class, () -> ObservationCollector.pdb(pdb));
    assertTrue(error.getMessage().contains("default/odd"), error.getMessage());
  }
}

package dev.farrier.activities.rollout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.RolloutPreview.PreviewHold;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a preview says will hold a node's drain, from the pods and budgets as the cluster lists them. */
class DrainHoldsTest {
  private static Pod pod(String name, String node, Map<String, String> annotations, Long deadline) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withLabels(Map.of("app", "web"))
        .withAnnotations(annotations).endMetadata()
        .withNewSpec().withNodeName(node).withActiveDeadlineSeconds(deadline).endSpec()
        .withNewStatus().withPhase("Running").endStatus().build();
  }

  private static PodDisruptionBudget pdb(int allowed) {
    return new PodDisruptionBudgetBuilder().withNewMetadata().withName("web").withNamespace("default").endMetadata()
        .withNewSpec().withSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "web")).build()).endSpec()
        .withNewStatus().withDisruptionsAllowed(allowed).withCurrentHealthy(2).withDesiredHealthy(2).withExpectedPods(2).endStatus()
        .build();
  }

  private static final List<Pod> TWO_NODES = List.of(pod("web-a", "a", Map.of(), null), pod("web-b", "b", Map.of(), null));

  @Test
  void aBudgetAllowingNoEvictionHoldsTheDrainUntilItsPodsOwnersAct() {
    List<PreviewHold> holds = DrainHolds.of(TWO_NODES, List.of(pdb(0))).on("a", List.of("a"));
    assertEquals(1, holds.size(), holds.toString());
    assertEquals(DrainHolds.PDB, holds.getFirst().kind());
    assertEquals("default/web", holds.getFirst().name());
    assertTrue(holds.getFirst().until().contains("until its pods' owners act"), holds.toString());
  }

  @Test
  void aBudgetOfOneHoldsNothingOnOneNodeButSerializesABatchOfTwo() {
    var holds = DrainHolds.of(TWO_NODES, List.of(pdb(1)));
    assertEquals(List.of(), holds.on("a", List.of("a")), "one pod, one eviction allowed");
    List<PreviewHold> batch = holds.on("a", List.of("a", "b"));
    assertEquals(1, batch.size(), batch.toString());
    assertTrue(batch.getFirst().until().contains("allows 1 eviction(s) now for its 2 pod(s) on this batch's nodes"), batch.toString());
  }

  @Test
  void aDoNotDisruptPodHoldsItsNodeUntilItEndsAtTheLatestByItsDeadline() {
    var pods = List.of(pod("job-1", "a", Map.of(WellKnown.DO_NOT_DISRUPT_ANNOTATION, "true"), 600L),
        pod("web-2", "b", Map.of(WellKnown.DO_NOT_DISRUPT_ANNOTATION, "true"), null));
    var holds = DrainHolds.of(pods, List.of());
    assertTrue(holds.on("a", List.of("a")).getFirst().until().contains("at the latest 600s"), holds.on("a", List.of("a")).toString());
    assertTrue(holds.on("b", List.of("b")).getFirst().until().contains("nothing on it tells when"), holds.on("b", List.of("b")).toString());
    assertEquals(List.of(), holds.on("c", List.of("c")), "a node without pods has nothing holding it");
  }
}

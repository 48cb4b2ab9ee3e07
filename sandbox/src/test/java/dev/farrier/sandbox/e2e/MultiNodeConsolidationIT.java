package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.ConsolidationScenario;
import dev.farrier.sandbox.DriftScenario;
import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Multi-node consolidation end to end, on the real worker. Three pods of 1 CPU, kept apart by a required pod
 * anti-affinity, get a node each; the anti-affinity is then dropped (the Deployment recreates its pods, which the
 * kube-scheduler spreads over the emptiest nodes, one each again). No node's pods fit on the others, but one node
 * cheaper than several of them together holds their pods: the first of the group is replaced by that node, and the
 * others are deleted once their pods have room there. The three pods end together on the new node, the fleet with
 * fewer nodes at a lower price, every pod Ready.
 */
class MultiNodeConsolidationIT {
  private static final String SOLO = "solo";
  private static final Duration TIMEOUT = Duration.ofMinutes(8);
  /**
   * A solo pod's request: one per 2-vCPU node (1,930m allocatable: two would need 2,000m), too much for the room left
   * beside the three 1-CPU inflate pods on their 4-vCPU node (920m), so no node's pods can simply move, however the
   * kube-scheduler places the recreated pods; three of them, with or without the inflate node, fit on one node cheaper
   * than the nodes they leave. (At 950m one fits beside another on a 2-vCPU node, so deleting a node saved too: on a
   * loaded machine the planner once took that delete first, and no group was left to consolidate.)
   */
  private static final String SOLO_CPU = "1000m";

  @Test
  void severalNodesArePackedOntoOneCheaperNode() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("multi-node-consolidation"), "e2e-multi-node", 0)) {
      env.startWorker();
      var scenario = E2e.scenario(env);
      var kube = env.kube();
      // The consolidation scenario's NodePool (on-demand, consolidateAfter 20s), with a budget that has room for a group
      // (the default, 10% of four nodes, allows one).
      scenario.provision("1.34", blueprint -> {
        String edited = ConsolidationScenario.edit(blueprint).replace("consolidateAfter: " + ConsolidationScenario.CONSOLIDATE_AFTER,
            "consolidateAfter: " + ConsolidationScenario.CONSOLIDATE_AFTER + "\n    budgets:\n      - nodes: \"100%\"");
        if (!edited.contains("\"100%\"")) {
          throw new IllegalStateException("the blueprint's budget was not edited");
        }
        return edited;
      });
      kube.apps().deployments().inNamespace(DriftScenario.NAMESPACE).resource(solo(true)).create();
      E2e.await("3 " + SOLO + " pods Ready on 3 nodes", TIMEOUT, () -> soloNodes(kube).size() == 3 && readySolo(kube).size() == 3);
      Set<String> before = farrierNodes(kube);
      double priceBefore = price(env, kube, before);

      // Without the anti-affinity, consolidation may pack them; Recreate puts one back on each emptied node.
      kube.apps().deployments().inNamespace(DriftScenario.NAMESPACE).withName(SOLO).edit(d -> solo(false));

      // The group's replacement holds every solo pod once the group's other nodes are gone.
      E2e.await("a multi-node replace, then the " + SOLO + " pods together on a new node, fewer nodes at a lower price, every pod"
          + " Ready", TIMEOUT, () -> {
        Set<String> soloOn = soloNodes(kube);
        Set<String> now = farrierNodes(kube);
        return multiNodeReplaceStarted(kube) && readySolo(kube).size() == 3 && soloOn.size() == 1
            && !before.contains(soloOn.iterator().next()) && scenario.readyAppPods().size() == 3
            && now.size() < before.size() && price(env, kube, now) < priceBefore;
      });
      Set<String> after = farrierNodes(kube);
      assertTrue(after.size() < before.size(), before + " became " + after);
      double priceAfter = price(env, kube, after);
      assertTrue(priceAfter < priceBefore, before + " ($" + priceBefore + "/h) became " + after + " ($" + priceAfter + "/h)");
      var started = disruptionsStarted(kube);
      assertTrue(started.stream().anyMatch(m -> m.contains("disrupting via replace: underutilized (multi-node: replace")), started.toString());
      // Every node that went was disrupted by consolidation.
      Set<String> gone = before.stream().filter(n -> !after.contains(n)).collect(Collectors.toSet());
      assertEquals(gone, started.stream().map(m -> m.split(" ", 2)[0]).filter(gone::contains).collect(Collectors.toSet()), started.toString());
    }
  }

  private static Deployment solo(boolean apart) {
    var builder = new DeploymentBuilder().withNewMetadata().withName(SOLO).withNamespace(DriftScenario.NAMESPACE).endMetadata()
        .withNewSpec().withReplicas(3).withNewSelector().addToMatchLabels("app", SOLO).endSelector()
          .withNewStrategy().withType("Recreate").endStrategy()
          .withNewTemplate().withNewMetadata().addToLabels("app", SOLO).endMetadata()
            // The sandbox blueprint's NodePool labels its nodes intent=apps, and its inflate pods select them so.
            .withNewSpec().withNodeSelector(Map.of("intent", "apps")).withTerminationGracePeriodSeconds(0L)
              .addNewContainer().withName(SOLO).withImage("public.ecr.aws/eks-distro/kubernetes/pause:3.7")
                .withNewResources().addToRequests("cpu", new Quantity(SOLO_CPU)).endResources()
              .endContainer()
            .endSpec()
          .endTemplate()
        .endSpec();
    if (apart) {
      builder.editSpec().editTemplate().editSpec().withNewAffinity().withNewPodAntiAffinity()
          .addNewRequiredDuringSchedulingIgnoredDuringExecution()
            .withNewLabelSelector().addToMatchLabels("app", SOLO).endLabelSelector().withTopologyKey(WellKnown.HOSTNAME_LABEL)
          .endRequiredDuringSchedulingIgnoredDuringExecution()
          .endPodAntiAffinity().endAffinity().endSpec().endTemplate().endSpec();
    }
    return builder.build();
  }

  private static List<Pod> readySolo(KubernetesClient kube) {
    return kube.pods().inNamespace(DriftScenario.NAMESPACE).withLabel("app", SOLO).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null && p.getStatus().getConditions() != null
            && p.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
        .toList();
  }

  private static Set<String> soloNodes(KubernetesClient kube) {
    return readySolo(kube).stream().map(p -> p.getSpec().getNodeName()).collect(Collectors.toSet());
  }

  private static Set<String> farrierNodes(KubernetesClient kube) {
    return kube.nodes().list().getItems().stream().filter(n -> n.getMetadata().getLabels().containsKey(WellKnown.NODEPOOL_LABEL))
        .map(n -> n.getMetadata().getName()).collect(Collectors.toSet());
  }

  private static double price(SandboxEnvironment env, KubernetesClient kube, Set<String> nodes) {
    double sum = 0;
    for (String name : nodes) {
      Node node = kube.nodes().withName(name).get();
      sum += E2e.onDemandPrice(env, node.getMetadata().getLabels().get(WellKnown.INSTANCE_TYPE_LABEL));
    }
    return sum;
  }

  /** "node message" of every DisruptionStarted Event on a Node. */
  private static List<String> disruptionsStarted(KubernetesClient kube) {
    return kube.v1().events().inAnyNamespace().list().getItems().stream()
        .filter(e -> "Node".equals(e.getInvolvedObject().getKind()) && "DisruptionStarted".equals(e.getReason()))
        .map(e -> e.getInvolvedObject().getName() + " " + e.getMessage()).toList();
  }

  private static boolean multiNodeReplaceStarted(KubernetesClient kube) {
    return disruptionsStarted(kube).stream().anyMatch(m -> m.contains("(multi-node: replace"));
  }
}

package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.simulated.SimulatedKubelet;
import dev.farrier.activities.crd.EC2NodeClassStatus;
import dev.farrier.activities.crd.NodePoolHash;
import dev.farrier.activities.crd.ResolvedAmi;
import dev.farrier.activities.disruption.ReplacementTracker;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.activities.planning.PlanningActivitiesImpl;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.model.RolloutBatch;
import dev.farrier.model.RolloutScope;
import dev.farrier.model.WorkloadRef;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fleet upgrade's plan in one step ({@link RolloutScope#inOneStep}) on the real kube-apiserver (simulated cloud, kwok
 * nodes): the change freeze answered first, then the drifted node handed out with the workloads of the pods on it, the
 * DaemonSet's left out.
 */
class RolloutPlanIT extends ClusterIT {
  private static final String CLUSTER = SimulatedActivities.CLUSTER;
  private static final String ROLLOUT = "upgrade/rolloutplan/al2023@v20251103";

  private final AtomicReference<String> freeze = new AtomicReference<>();
  private SimulatedActivities activities;
  private SimulatedKubelet kubelet;
  private PlanningActivitiesImpl planning;
  private String namespace;

  @BeforeEach
  void start(@TempDir Path cloudDir) {
    activities = new SimulatedActivities(client, cluster, cloudDir);
    kubelet = new SimulatedKubelet(client, activities.cloud).start();
    planning = new PlanningActivitiesImpl(cluster, activities.cloud, ReplacementTracker.TAINT_MEANS_RUNNING, new SimpleMeterRegistry(),
        false, nodePools -> nodePools.contains(activities.nodePool) ? freeze.get() : null);
    namespace = KubeTestSupport.unique("rollout");
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
  }

  @AfterEach
  void stop() {
    KubeTestSupport.deleteQuietly(() -> client.namespaces().withName(namespace).delete());
    kubelet.close();
    activities.close();
  }

  /** The EC2NodeClass now resolves a newer image: every claim launched before is AMI-drifted. */
  private void newerImage() {
    var resolved = cluster.getNodeClass(activities.nodeClass).orElseThrow().getStatus().amis();
    var newer = activities.cloud.ssmParameter("/aws/service/eks/optimized-ami/1.35/amazon-linux-2/recommended/image_id").orElseThrow();
    cluster.patchNodeClassStatus(activities.nodeClass, new EC2NodeClassStatus(
        resolved.stream().map(a -> new ResolvedAmi(newer, a.name(), a.deprecated(), a.requirements())).toList(), null, null, null, null));
  }

  @Test
  void aPlanInOneStepAnswersTheFreezeFirstThenHandsOutTheDriftedNodeWithWhatRunsOnIt() {
    var claim = KubeTestSupport.unique(activities.nodePool);
    // On the NodePool's current hash: only its image drifts.
    var nodeName = activities.initializedNode(claim, NodePoolHash.of(cluster.getNodePool(activities.nodePool).orElseThrow()));
    client.apps().deployments().inNamespace(namespace).resource(new DeploymentBuilder()
        .withNewMetadata().withName("web").endMetadata()
        .withNewSpec().withReplicas(2).withNewSelector().addToMatchLabels("app", "web").endSelector()
          .withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata()
            .withNewSpec().withNodeName(nodeName).addNewContainer().withName("web").withImage("pause").endContainer().endSpec()
          .endTemplate()
        .endSpec().build()).create();
    // The DaemonSet runs on this node only: the one carrying this test's label.
    client.nodes().withName(nodeName).edit(n -> {
      n.getMetadata().getLabels().put("farrier.test/rollout-plan", namespace);
      return n;
    });
    client.apps().daemonSets().inNamespace(namespace).resource(new DaemonSetBuilder()
        .withNewMetadata().withName("agent").endMetadata()
        .withNewSpec().withNewSelector().addToMatchLabels("app", "agent").endSelector()
          .withNewTemplate().withNewMetadata().addToLabels("app", "agent").endMetadata()
            .withNewSpec().withNodeSelector(Map.of("farrier.test/rollout-plan", namespace))
              .addNewToleration().withOperator("Exists").endToleration()
              .addNewContainer().withName("agent").withImage("pause").endContainer().endSpec()
          .endTemplate()
        .endSpec().build()).create();
    KubeTestSupport.awaitTrue("the web pods and the agent on " + nodeName, () -> cluster.listPodsOnNode(nodeName).stream()
        .filter(p -> namespace.equals(p.getMetadata().getNamespace())).count() == 3);
    client.genericKubernetesResources("karpenter.sh/v1", "NodePool").withName(activities.nodePool).edit(p -> {
      var annotations = p.getMetadata().getAnnotations() == null ? new HashMap<String, String>() : new HashMap<>(p.getMetadata().getAnnotations());
      annotations.put(WellKnown.ROLLOUT_ANNOTATION, ROLLOUT);
      p.getMetadata().setAnnotations(annotations);
      return p;
    });
    newerImage();
    var inOneStep = new PlanDisruptionRequest(CLUSTER, new RolloutScope(ROLLOUT, List.of(activities.nodePool), 1, List.of(), List.of(), true));

    freeze.set("NodePool " + activities.nodePool + " frozen by ops: release week");
    RolloutBatch frozen = planning.planRollout(inOneStep);

    assertEquals("NodePool " + activities.nodePool + " frozen by ops: release week", frozen.frozen());
    assertEquals(List.of(), frozen.commands(), "nothing planned under a freeze");

    freeze.set(null);
    RolloutBatch batch = planning.planRollout(inOneStep);

    assertNull(batch.frozen());
    assertEquals(List.of(claim), batch.commands().stream().map(DisruptionCommand::nodeClaim).toList(), batch.toString());
    List<WorkloadRef> moved = batch.workloadsOf(List.of(claim));
    assertEquals(1, moved.size(), "the Deployment's ReplicaSet, once for its two pods; not the DaemonSet: " + moved);
    assertEquals(List.of(namespace, "ReplicaSet"), List.of(moved.getFirst().namespace(), moved.getFirst().kind()));
    assertTrue(moved.getFirst().name().startsWith("web-"), moved.toString());

    // Asked the older way (the rollout asked the freeze itself, and asks the workloads after): a plan, nothing more.
    freeze.set("frozen");
    RolloutBatch older = planning.planRollout(new PlanDisruptionRequest(CLUSTER,
        new RolloutScope(ROLLOUT, List.of(activities.nodePool), 1, List.of(), List.of())));
    assertNull(older.frozen());
    assertEquals(List.of(claim), older.commands().stream().map(DisruptionCommand::nodeClaim).toList());
    assertEquals(Map.of(), older.workloads());
    activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, claim));
  }
}

package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.simulated.SimulatedKubelet;
import dev.farrier.activities.crd.NodePoolHash;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.activities.rollout.RolloutActivitiesImpl;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.workflows.activities.OffTargetNode;
import dev.farrier.workflows.activities.TargetCheckRequest;
import dev.farrier.model.WellKnown;
import dev.farrier.model.ReconcilerSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check a rollout ends with ({@link RolloutActivitiesImpl#offTarget}) on the real kube-apiserver: a node of the
 * NodePool whose NodeClaim reports another image than the target's is named, with what holds it (an operator's abort
 * mark on the Node); one on the target is not.
 */
class OffTargetIT extends ClusterIT {
  private static final String CLUSTER = SimulatedActivities.CLUSTER;

  private SimulatedActivities activities;
  private SimulatedKubelet kubelet;
  private RolloutActivitiesImpl rollout;

  @BeforeEach
  void start(@TempDir Path cloudDir) {
    activities = new SimulatedActivities(client, cluster, cloudDir);
    kubelet = new SimulatedKubelet(client, activities.cloud).start();
    rollout = new RolloutActivitiesImpl(cluster, cluster, cluster, activities.cloud, id -> false, ReconcilerSettings.DEFAULTS,
        claim -> java.util.Optional.empty());
  }

  @AfterEach
  void stop() {
    kubelet.close();
    activities.close();
  }

  @Test
  void aNodeOffTheTargetIsNamedWithWhatHoldsItAndOneOnItIsNot() {
    var claim = KubeTestSupport.unique(activities.nodePool);
    var nodeName = activities.initializedNode(claim, NodePoolHash.of(cluster.getNodePool(activities.nodePool).orElseThrow()));
    String image = cluster.getNodeClaim(claim).orElseThrow().getStatus().imageID();
    List<String> pools = List.of(activities.nodePool);

    assertEquals(List.of(), rollout.offTarget(new TargetCheckRequest(CLUSTER, pools, List.of(image, "ami-other-arch"))),
        "its image is one of the target's");

    List<OffTargetNode> off = rollout.offTarget(new TargetCheckRequest(CLUSTER, pools, List.of("ami-next")));
    assertEquals(1, off.size(), off.toString());
    assertEquals(List.of(claim, nodeName, image), List.of(off.getFirst().nodeClaim(), off.getFirst().node(), off.getFirst().image()));
    assertTrue(off.getFirst().why().contains("nothing on the node or its NodeClaim holds it"), off.toString());

    cluster.patchNodeMetadata(nodeName, Map.of(), Map.of(WellKnown.FARRIER_ABORTED_ANNOTATION, "2026-11-28T00:00:00Z"));
    KubeTestSupport.awaitTrue("the abort mark named", () -> rollout.offTarget(new TargetCheckRequest(CLUSTER, pools, List.of("ami-next")))
        .getFirst().why().contains(WellKnown.FARRIER_ABORTED_ANNOTATION));
    activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, claim));
  }
}

package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.simulated.SimulatedKubelet;
import dev.farrier.activities.crd.NodePoolHash;
import dev.farrier.activities.disruption.DisruptionSnapshots;
import dev.farrier.activities.disruption.ReplacementTracker;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.activities.provisioning.PlanningInputs;
import dev.farrier.activities.rollout.RolloutPreviews;
import dev.farrier.model.AmiTerm;
import dev.farrier.model.RolloutPreview;
import dev.farrier.model.RolloutPreview.PreviewBatch;
import dev.farrier.model.RolloutPreview.PreviewNode;
import dev.farrier.model.WellKnown;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.activities.ClaimRolloutRequest;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.workflows.activities.PreviewRolloutRequest;
import dev.farrier.workflows.activities.PreviewRolloutRequest.RunningRollout;
import io.temporal.failure.ApplicationFailure;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The preview activity on the real kube-apiserver (simulated cloud, a simulated kubelet): a fleet of three
 * drifted-to-be nodes previewed for a rollout to a newer image, as a dry run and as a running rollout with its canary
 * in flight; a change freeze shown; a NodePool another running rollout owns refused as the claim refuses it; and
 * nothing written to the NodePool or its EC2NodeClass.
 */
class RolloutPreviewsIT extends ClusterIT {
  private static final String CLUSTER = SimulatedActivities.CLUSTER;
  private static final String ROLLOUT = "upgrade/previews/al2023@v20251103";

  private final Set<String> runningWorkflows = ConcurrentHashMap.newKeySet();
  private final AtomicReference<String> freeze = new AtomicReference<>();
  private final List<String> claims = new ArrayList<>();
  private SimulatedActivities activities;
  private SimulatedKubelet kubelet;

  @BeforeEach
  void start(@TempDir Path cloudDir) {
    activities = new SimulatedActivities(client, cluster, cloudDir);
    kubelet = new SimulatedKubelet(client, activities.cloud).start();
  }

  @AfterEach
  void stop() {
    claims.forEach(c -> KubeTestSupport.deleteQuietly(() -> activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, c))));
    kubelet.close();
    activities.close();
  }

  private RolloutPreviews previews() {
    return new RolloutPreviews(cluster, cluster, activities.cloud, new DisruptionSnapshots(cluster,
        ReplacementTracker.TAINT_MEANS_RUNNING, new PlanningInputs(cluster, activities.cloud), Clock.systemUTC(), false),
        pools -> List.of(60L, 90L), runningWorkflows::contains, pools -> freeze.get());
  }

  private PreviewRolloutRequest request(String ami, RunningRollout running) {
    return new PreviewRolloutRequest(new ClaimRolloutRequest(CLUSTER, ROLLOUT, List.of(activities.nodePool), null,
        List.of(new AmiTerm(null, ami, null, null, null, null)), null), ami, "2", 1, false, 0, false, running);
  }

  private static List<String> nodesOf(RolloutPreview p) {
    return p.batches().stream().flatMap(b -> b.nodes().stream()).map(PreviewNode::nodeClaim).toList();
  }

  private String versions() {
    var pool = client.genericKubernetesResources("karpenter.sh/v1", "NodePool").withName(activities.nodePool).get();
    var nodeClass = client.genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass").withName(activities.nodeClass).get();
    return pool.getMetadata().getResourceVersion() + " " + nodeClass.getMetadata().getResourceVersion();
  }

  @Test
  void aPreviewNumbersItsBatchesFromTheCanaryShowsTheImagesAndWritesNothing() {
    String hash = NodePoolHash.of(cluster.getNodePool(activities.nodePool).orElseThrow());
    for (int i = 0; i < 3; i++) {
      String claim = KubeTestSupport.unique(activities.nodePool);
      claims.add(claim);
      activities.initializedNode(claim, hash);
    }
    String before = cluster.getNodeClass(activities.nodeClass).orElseThrow().getStatus().amis().getFirst().id();
    String target = activities.cloud.ssmParameter("/aws/service/eks/optimized-ami/1.35/amazon-linux-2/recommended/image_id").orElseThrow();
    String versions = versions();

    RolloutPreview dryRun = previews().previewRollout(request(target, null));

    assertNull(dryRun.notStarting(), dryRun.toString());
    assertNull(dryRun.frozen());
    assertFalse(dryRun.running());
    assertEquals(3, dryRun.total());
    assertEquals(Set.copyOf(claims), Set.copyOf(nodesOf(dryRun)), "every node in a batch, none held: " + dryRun);
    assertEquals(List.of(), dryRun.held());
    List<PreviewBatch> batches = dryRun.batches();
    for (int i = 0; i < batches.size(); i++) {
      assertEquals(i + 1, batches.get(i).number());
      assertEquals(i == 0, batches.get(i).canary(), "only the first batch is the canary");
    }
    assertEquals(1, batches.getFirst().nodes().size(), "a canary of one");
    for (PreviewNode n : batches.stream().flatMap(b -> b.nodes().stream()).toList()) {
      assertEquals(before, n.imageBefore(), n.toString());
      assertEquals(target, n.imageAfter(), "the target as the rollout's class will resolve it: " + n);
    }
    assertNotNull(dryRun.estimate().totalSeconds(), "two closed replacements of history: " + dryRun.estimate());

    // The same rollout running, its canary in flight: the batches after it, numbered on, none a canary.
    String canary = batches.getFirst().nodes().getFirst().nodeClaim();
    RolloutPreview left = previews().previewRollout(request(target, new RunningRollout(1, 3, List.of(canary), "Canary")));
    assertTrue(left.running());
    assertEquals(List.of(canary), left.inFlight().stream().map(PreviewNode::nodeClaim).toList());
    assertFalse(nodesOf(left).contains(canary), left.toString());
    assertEquals(2, nodesOf(left).size(), left.toString());
    assertEquals(2, left.batches().getFirst().number());
    assertTrue(left.batches().stream().noneMatch(PreviewBatch::canary));

    // Under a change freeze the rollout would wait: the preview says so.
    freeze.set("NodePool " + activities.nodePool + " frozen by ops: release week");
    assertEquals(freeze.get(), previews().previewRollout(request(target, null)).frozen());
    freeze.set(null);

    // To the image the fleet runs: nothing to replace; a running rollout whose nodes all run it has nothing left (exit 8).
    assertNotNull(previews().previewRollout(request(before, null)).notStarting());
    assertTrue(previews().previewRollout(request(before, new RunningRollout(2, 3, List.of(), "Batch"))).notStarting()
        .startsWith("nothing left to replace"));
    assertEquals(versions, versions(), "the NodePool and the EC2NodeClass untouched");

    // Another rollout owns the NodePool: refused as its claim would be while it runs, previewed once it has ended.
    String other = "upgrade/" + activities.nodePool + "/other";
    client.genericKubernetesResources("karpenter.sh/v1", "NodePool").withName(activities.nodePool).edit(p -> {
      var annotations = p.getMetadata().getAnnotations() == null ? new HashMap<String, String>()
          : new HashMap<>(p.getMetadata().getAnnotations());
      annotations.put(WellKnown.ROLLOUT_ANNOTATION, other);
      p.getMetadata().setAnnotations(annotations);
      return p;
    });
    runningWorkflows.add(other);
    var refused = assertThrows(ApplicationFailure.class, () -> previews().previewRollout(request(target, null)));
    assertEquals(FailureTypes.ROLLOUT_CONFLICT, refused.getType());
    assertTrue(refused.getOriginalMessage().contains("is being upgraded by " + other), refused.getOriginalMessage());
    runningWorkflows.clear();
    assertEquals(3, previews().previewRollout(request(target, null)).total(), "its owner has ended: free again");
  }
}

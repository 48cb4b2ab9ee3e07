package dev.farrier.activities.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimResources;
import dev.farrier.activities.crd.NodeClaimSpec;
import dev.farrier.activities.crd.NodeClassReference;
import dev.farrier.activities.crd.RequirementWithMinValues;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The worker's informer cache on a real kube-apiserver (with its scheduler): what a planning round and the registration
 * wait read come from the informers, indexed, and follow creations and deletions; a cache that cannot sync fails its
 * reads with the kind and the reason instead of answering empty.
 */
class ClusterCacheIT extends ClusterIT {
  private ClusterCache cache;
  private Fabric8Cluster cached;
  private String namespace;

  @BeforeEach
  void startCache() {
    cache = ClusterCache.start(client);
    cached = new Fabric8Cluster(client, cache);
    namespace = KubeTestSupport.unique("cache");
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
  }

  @AfterEach
  void stopCache() {
    cached.close();
    cache.close();
    KubeTestSupport.deleteQuietly(() -> client.namespaces().withName(namespace).delete());
  }

  @Test
  void nodesAreFoundByProviderIdAndFollowDeletion() {
    String name = KubeTestSupport.unique("kwok");
    String providerId = "kwok://" + name;
    assertTrue(cached.findNodeByProviderId(providerId).isEmpty(), "not created yet");
    KubeTestSupport.createKwokNode(client, name);
    KubeTestSupport.awaitTrue("the cache sees the node", () -> cached.findNodeByProviderId(providerId).isPresent());
    assertEquals(name, cached.findNodeByProviderId(providerId).orElseThrow().getMetadata().getName());
    assertTrue(cached.listNodes().stream().anyMatch(n -> n.getMetadata().getName().equals(name)));
    assertEquals(providerId, cached.findNode(name).orElseThrow().getSpec().getProviderID(), "and by name");
    assertTrue(cached.findNode(KubeTestSupport.unique("absent")).isEmpty());
    assertTrue(cache.synced(), "every informer synced once a read has returned: " + cache.notSynced());

    client.nodes().withName(name).delete();
    KubeTestSupport.awaitTrue("the cache drops the node", () -> cached.findNodeByProviderId(providerId).isEmpty());
    KubeTestSupport.awaitTrue("by name too", () -> cached.findNode(name).isEmpty());

    // The lists were the cache's: once it is closed they fail instead of asking the API server.
    cache.close();
    assertThrows(ClusterCache.NotSyncedException.class, () -> cached.findNode(name));
    var stopped = assertThrows(ClusterCache.NotSyncedException.class, cached::listNodes);
    assertEquals("the informer of Nodes has stopped; its cache is no longer kept", stopped.getMessage());
  }

  @Test
  void theCacheKeepsPodsWithoutTheManagedFieldsTheServerWrote() {
    Pod created = client.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName("slim")
        .endMetadata().withNewSpec().addNewContainer().withName("c").withImage("pause").endContainer().endSpec().build()).create();
    assertFalse(created.getMetadata().getManagedFields().isEmpty(), "the server records who wrote what");

    KubeTestSupport.awaitTrue("the cache sees the pod", () -> cache.unboundPods().stream()
        .anyMatch(p -> p.getMetadata().getName().equals("slim") && p.getMetadata().getNamespace().equals(namespace)));
    Pod cachedPod = cache.unboundPods().stream().filter(p -> p.getMetadata().getName().equals("slim")).findFirst().orElseThrow();
    assertTrue(cachedPod.getMetadata().getManagedFields() == null || cachedPod.getMetadata().getManagedFields().isEmpty());
    assertEquals(created.getMetadata().getUid(), cachedPod.getMetadata().getUid());
  }

  @Test
  void nodeClaimsAreIndexedByTheirNodePool() {
    String pool = KubeTestSupport.unique("pool");
    String name = KubeTestSupport.unique(pool);
    cluster.createNodeClaimIfAbsent(claim(name, pool));
    KubeTestSupport.awaitTrue("the cache sees the claim", () -> cached.listNodeClaimsOfNodePool(pool).size() == 1);
    assertEquals(name, cached.listNodeClaimsOfNodePool(pool).getFirst().getMetadata().getName());
    assertTrue(cached.listNodeClaimsOfNodePool(pool + "-other").isEmpty());
    assertTrue(cached.listNodeClaims().stream().anyMatch(c -> c.getMetadata().getName().equals(name)));

    cluster.deleteNodeClaim(name);
    KubeTestSupport.awaitTrue("the cache drops the claim", () -> cached.listNodeClaimsOfNodePool(pool).isEmpty());
  }

  @Test
  void podsAreSplitIntoBoundUnboundAndPendingAsTheServerSeesThem() {
    String node = KubeTestSupport.unique("kwok");
    KubeTestSupport.createKwokNode(client, node);
    client.pods().inNamespace(namespace).resource(pod("bound", Map.of()).edit().editSpec().withNodeName(node).endSpec().build()).create();
    // Nothing carries this label: the scheduler marks the pod Unschedulable.
    client.pods().inNamespace(namespace).resource(pod("stuck", Map.of("cache-test", "nowhere"))).create();

    KubeTestSupport.awaitTrue("the stuck pod is pending in the cache", () -> names(cached.listPendingPods()).contains("stuck"));
    assertTrue(names(cached.listBoundPods()).contains("bound"));
    assertFalse(names(cached.listBoundPods()).contains("stuck"));
    assertTrue(names(cached.listUnboundPods()).contains("stuck"));
    assertFalse(names(cached.listUnboundPods()).contains("bound"));
    // The same answers as the API server's own lists.
    assertEquals(names(cluster.listPendingPods()), names(cached.listPendingPods()));
    KubeTestSupport.deleteQuietly(() -> client.nodes().withName(node).delete());
  }

  @Test
  void aPodHandlerAddedToTheRunningCacheIsToldOfThePodsItHoldsAndOfLaterChanges() {
    client.pods().inNamespace(namespace).resource(pod("before", Map.of("cache-test", "nowhere"))).create();
    KubeTestSupport.awaitTrue("the cache sees the pod", () -> names(cached.listUnboundPods()).contains("before"));
    List<String> seen = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    ResourceEventHandler<Pod> handler = new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod pod) {
        seen.add("add " + pod.getMetadata().getName());
      }

      @Override
      public void onUpdate(Pod before, Pod pod) {
      }

      @Override
      public void onDelete(Pod pod, boolean unknown) {
        seen.add("delete " + pod.getMetadata().getName());
      }
    };
    cache.addPodHandler(handler);
    KubeTestSupport.awaitTrue("the existing pod told as an add", () -> seen.contains("add before"));
    client.pods().inNamespace(namespace).withName("before").withGracePeriod(0).delete();
    KubeTestSupport.awaitTrue("its deletion told", () -> seen.contains("delete before"));

    cache.removePodHandler(handler);
    client.pods().inNamespace(namespace).resource(pod("after", Map.of("cache-test", "nowhere"))).create();
    KubeTestSupport.awaitTrue("the cache sees the later pod", () -> names(cached.listUnboundPods()).contains("after"));
    assertFalse(seen.contains("add after"), "a removed handler is told nothing: " + seen);
  }

  @Test
  void aCacheThatCannotSyncFailsItsReadsNamingTheKindAndTheReason() {
    try (KubernetesClient unreachable = new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").withRequestRetryBackoffLimit(0).build()).build();
        ClusterCache broken = ClusterCache.start(unreachable, Duration.ofSeconds(1))) {
      var failure = assertThrows(ClusterCache.NotSyncedException.class, broken::nodeClaims);
      assertTrue(failure.getMessage().startsWith("the worker's cache of NodeClaims has not synced within 1 s"), failure.getMessage());
      assertFalse(broken.synced());
      assertEquals(13, broken.notSynced().size(), broken.notSynced().toString());
      assertThrows(ClusterCache.NotSyncedException.class, () -> broken.nodeByProviderId("kwok://x"));
    }
  }

  /**
   * A cluster whose NodeOverlay CRD is missing (an installation upgraded with helm, which installs no new CRD) is read as
   * one without overlays, at once, and the worker is ready; once the CRD is applied the overlays are read without a
   * restart.
   */
  @Test
  void withoutTheNodeOverlayCrdTheCacheReadsNoOverlaysAndReadsThemOnceItIsApplied() {
    var crds = client.apiextensions().v1().customResourceDefinitions();
    cached.close();
    cache.close();
    crds.withName("nodeoverlays.karpenter.sh").delete();
    KubeTestSupport.awaitTrue("the NodeOverlay CRD gone", () -> crds.withName("nodeoverlays.karpenter.sh").get() == null);
    String name = KubeTestSupport.unique("overlay");
    try {
      cache = ClusterCache.start(client);
      cached = new Fabric8Cluster(client, cache);
      KubeTestSupport.awaitTrue("every other kind synced", cache::synced);
      assertEquals(List.of(), cached.listNodeOverlays());

      KubeTestSupport.installCrds(client);
      KubeTestSupport.apply(client, KubeTestSupport.nodeOverlayYaml(name, "requirements: []\nprice: \"0.5\""));

      KubeTestSupport.awaitTrue("the overlay read once its CRD is there",
          () -> cached.listNodeOverlays().stream().anyMatch(o -> o.getMetadata().getName().equals(name)));
      assertEquals("0.5", cached.listNodeOverlays().stream().filter(o -> o.getMetadata().getName().equals(name)).findFirst().orElseThrow()
          .getSpec().price());
    } finally {
      KubeTestSupport.installCrds(client);
      client.resources(dev.farrier.activities.crd.NodeOverlay.class).withName(name).delete();
    }
  }

  private static List<String> names(List<Pod> pods) {
    return pods.stream().map(p -> p.getMetadata().getName()).sorted().toList();
  }

  private static Pod pod(String name, Map<String, String> nodeSelector) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withNodeSelector(nodeSelector).withTerminationGracePeriodSeconds(0L)
          .addNewContainer().withName("c").withImage("pause").endContainer()
        .endSpec().build();
  }

  static NodeClaim claim(String name, String pool) {
    NodeClaim claim = new NodeClaim();
    claim.getMetadata().setName(name);
    claim.getMetadata().setLabels(Map.of(WellKnown.NODEPOOL_LABEL, pool));
    claim.setSpec(new NodeClaimSpec(
        List.of(new RequirementWithMinValues(WellKnown.INSTANCE_TYPE_LABEL, "In", List.of("m5.large"), null)),
        new NodeClaimResources(Map.of("cpu", new Quantity("1"))), null, null, NodeClassReference.ec2NodeClass("default"), null, null));
    return claim;
  }
}

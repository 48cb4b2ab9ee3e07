package dev.farrier.activities.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.localstack.LocalStack;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A read-modify-write's first base is the informers' copy ({@link OptimisticPatcher} with {@link CachedObjects}), on a
 * real kube-apiserver: a current copy saves the GET, and a stale one never makes a write lose or miss what another
 * writer did in between.
 */
class CachedWritesIT extends ClusterIT {
  private static final String FINALIZER = "farrier.dev/cached-write-test";
  private static final String OTHER = "example.com/other-writer";

  private final List<String> requests = Collections.synchronizedList(new ArrayList<>());
  private KubernetesClient counted;

  @BeforeEach
  void countingClient(LocalStack stack) {
    Interceptor recorder = new Interceptor() {
      @Override
      public void before(BasicBuilder builder, HttpRequest request, Interceptor.RequestTags tags) {
        requests.add(request.method() + " " + request.uri().getPath());
      }
    };
    counted = KubeTestSupport.client(stack, b -> b.addOrReplaceInterceptor("record", recorder));
  }

  @AfterEach
  void close() {
    counted.close();
  }

  @Test
  void aWriteFromTheWorkersCacheSendsOnlyItsPatchAndAnEventNoRead() {
    String name = KubeTestSupport.unique("cached");
    cluster.createNodeClaimIfAbsent(ClusterCacheIT.claim(name, "cached-writes"));
    String path = "/apis/karpenter.sh/v1/nodeclaims/" + name;
    try (var cache = ClusterCache.start(counted); var cached = new Fabric8Cluster(counted, cache)) {
      KubeTestSupport.awaitTrue("the cache sees the claim", () -> cache.peek(NodeClaim.class, name) != null);
      requests.clear();

      assertTrue(cached.addNodeClaimFinalizer(name, FINALIZER));
      cached.recordEvent(new ClusterEvent(NodeClaim.KIND, name, ClusterEvent.NORMAL, "CachedWriteTest", "one write"));
      assertEquals(List.of("PATCH " + path), requestsTo(path), "the write's base and the Event's UID came from the cache");
      assertTrue(finalizers(name).contains(FINALIZER));

      KubeTestSupport.awaitTrue("the cache sees the finalizer",
          () -> cache.peek(NodeClaim.class, name).getMetadata().getFinalizers().contains(FINALIZER));
      requests.clear();
      assertFalse(cached.addNodeClaimFinalizer(name, FINALIZER), "already there");
      assertEquals(List.of("GET " + path), requestsTo(path), "nothing to do is confirmed live, and nothing is sent");
    } finally {
      cluster.removeNodeClaimFinalizer(name, FINALIZER);
      cluster.deleteNodeClaim(name);
    }
  }

  @Test
  void aStaleCopyNeverLosesNorMissesWhatAnotherWriterDidSince() {
    String name = KubeTestSupport.unique("stale");
    cluster.createNodeClaimIfAbsent(ClusterCacheIT.claim(name, "cached-writes"));
    String path = "/apis/karpenter.sh/v1/nodeclaims/" + name;
    try {
      NodeClaim stale = client.resources(NodeClaim.class).withName(name).get();
      var claims = new Fabric8NodeClaimStore(counted, new LiveLists(counted), new OptimisticPatcher(counted, only(stale)));
      cluster.addNodeClaimFinalizer(name, OTHER);
      requests.clear();

      assertTrue(claims.addNodeClaimFinalizer(name, FINALIZER), "written after the stale copy's 409");
      assertEquals(List.of("PATCH " + path, "GET " + path, "PATCH " + path), requestsTo(path));
      assertTrue(finalizers(name).containsAll(List.of(OTHER, FINALIZER)), "the other writer's finalizer kept: " + finalizers(name));

      requests.clear();
      assertTrue(claims.removeNodeClaimFinalizer(name, OTHER), "the stale copy has no such finalizer; the live claim has, and loses it");
      assertEquals(List.of("GET " + path, "PATCH " + path), requestsTo(path));
      assertEquals(List.of(FINALIZER), finalizers(name));
    } finally {
      cluster.removeNodeClaimFinalizer(name, OTHER);
      cluster.removeNodeClaimFinalizer(name, FINALIZER);
      cluster.deleteNodeClaim(name);
    }
  }

  private List<String> finalizers(String name) {
    return client.resources(NodeClaim.class).withName(name).get().getMetadata().getFinalizers();
  }

  private List<String> requestsTo(String path) {
    synchronized (requests) {
      return requests.stream().filter(r -> r.endsWith(" " + path)).toList();
    }
  }

  /** A cache that holds only {@code copy}, however old. */
  private static CachedObjects only(NodeClaim copy) {
    return new CachedObjects() {
      @Override
      public <T extends HasMetadata> T peek(Class<T> type, String name) {
        return type == NodeClaim.class && name.equals(copy.getMetadata().getName()) ? type.cast(copy) : null;
      }
    };
  }
}

package dev.farrier.activities.kube;

import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeOverlay;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster as the worker's informers see it: one fabric8 SharedIndexInformer per kind the planners read, listed
 * once (in pages) and then kept by its watch; Nodes indexed by {@code spec.providerID}, pods by node (unbound pods
 * under ""), NodeClaims by NodePool; each object stored without its managed fields ({@link SlimItemStore}). A planning round reads memory instead of listing every NodeClaim, NodePool,
 * Node and pod, and the registration wait looks its Node up in the index instead of listing every Node.
 *
 * <p>A read waits for its kind's informer to have synced (its first list applied), at most {@link #SYNC_WAIT}, a bound
 * below the heartbeat of every activity that reads; past it, or once an informer has stopped, the read fails with
 * {@link NotSyncedException} naming the kind and the last error, and the activity is retried. Informers retry every
 * list and watch failure themselves (with backoff), so an API server outage or a missing CRD heals without a restart.
 * While a watch reconnects, reads serve what the cache last saw, as Karpenter's cluster state does.
 *
 * <p>It also hands a write its first base ({@link #peek}, never waiting for a sync): a NodePool, EC2NodeClass,
 * NodeClaim or Node as last seen, which {@link OptimisticPatcher} sends with its resourceVersion as precondition.
 */
public final class ClusterCache implements ClusterLists, CachedObjects, AutoCloseable {
  /** How long a read waits for its informer's first sync: shorter than every reading activity's heartbeat (10 s). */
  public static final Duration SYNC_WAIT = Duration.ofSeconds(5);
  static final String BY_PROVIDER_ID = "providerID";
  static final String BY_NODE = "nodeName";
  static final String BY_NODEPOOL = "nodepool";
  static final int NOT_FOUND = 404;
  /** Objects per page of an informer's list, so a large cluster is not read in one response. */
  private static final long PAGE = 500;
  private static final Duration LOG_EVERY = Duration.ofMinutes(1);
  private static final Logger log = LoggerFactory.getLogger(ClusterCache.class);

  /** A read of the cache found its informer not synced (yet, or any more). Retryable: the activity tries again. */
  public static final class NotSyncedException extends IllegalStateException {
    NotSyncedException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** One kind's informer, the future of its first sync, and the last error it retried after. */
  private record Watched<T>(String kind, SharedIndexInformer<T> informer, CompletableFuture<Void> synced,
      AtomicReference<Throwable> lastError) {}

  private final Duration syncWait;
  private final List<Watched<?>> all = new ArrayList<>();
  private final Watched<NodePool> nodePools;
  private final Watched<EC2NodeClass> nodeClasses;
  private final Watched<NodeOverlay> nodeOverlays;
  private final Watched<NodeClaim> nodeClaims;
  private final Watched<Node> nodes;
  private final Watched<Pod> pods;
  private final Watched<PodDisruptionBudget> pdbs;
  private final Watched<DaemonSet> daemonSets;
  private final Watched<PersistentVolumeClaim> volumeClaims;
  private final Watched<PersistentVolume> volumes;
  private final Watched<StorageClass> storageClasses;
  private final Watched<CSINode> csiNodes;
  private final Watched<Namespace> namespaces;
  /** The cluster-scoped kinds Farrier writes, for {@link #peek}. */
  private final Map<Class<?>, Watched<?>> written;

  private ClusterCache(KubernetesClient client, Duration syncWait) {
    this.syncWait = syncWait;
    nodePools = watch("NodePools", client.resources(NodePool.class), Map.of());
    nodeClasses = watch("EC2NodeClasses", client.resources(EC2NodeClass.class), Map.of());
    nodeOverlays = watch("NodeOverlays", client.resources(NodeOverlay.class), Map.of());
    nodeClaims = watch("NodeClaims", client.resources(NodeClaim.class), Map.of(BY_NODEPOOL, c -> {
      String pool = c.getMetadata().getLabels() == null ? null : c.getMetadata().getLabels().get(WellKnown.NODEPOOL_LABEL);
      return pool == null ? List.of() : List.of(pool);
    }));
    nodes = watch("Nodes", client.nodes(), Map.of(BY_PROVIDER_ID, n -> {
      String id = providerId(n);
      return id == null ? List.of() : List.of(id);
    }));
    pods = watch("Pods", client.pods().inAnyNamespace(), Map.of(BY_NODE, p -> List.of(nodeName(p))));
    pdbs = watch("PodDisruptionBudgets", client.policy().v1().podDisruptionBudget().inAnyNamespace(), Map.of());
    daemonSets = watch("DaemonSets", client.apps().daemonSets().inAnyNamespace(), Map.of());
    volumeClaims = watch("PersistentVolumeClaims", client.persistentVolumeClaims().inAnyNamespace(), Map.of());
    volumes = watch("PersistentVolumes", client.persistentVolumes(), Map.of());
    storageClasses = watch("StorageClasses", client.storage().v1().storageClasses(), Map.of());
    csiNodes = watch("CSINodes", client.storage().v1().csiNodes(), Map.of());
    namespaces = watch("Namespaces", client.namespaces(), Map.of());
    written = Map.of(NodePool.class, nodePools, EC2NodeClass.class, nodeClasses, NodeClaim.class, nodeClaims, Node.class, nodes,
        NodeOverlay.class, nodeOverlays);
  }

  /** Starts every informer and returns at once; reads wait for their kind's first sync (at most {@link #SYNC_WAIT}). */
  public static ClusterCache start(KubernetesClient client) {
    return start(client, SYNC_WAIT);
  }

  public static ClusterCache start(KubernetesClient client, Duration syncWait) {
    return new ClusterCache(client, syncWait);
  }

  private <T extends HasMetadata> Watched<T> watch(String kind, Informable<T> source, Map<String, Function<T, List<String>>> indexers) {
    SharedIndexInformer<T> informer = source.withLimit(PAGE).runnableInformer(0).itemStore(new SlimItemStore<>());
    if (!indexers.isEmpty()) {
      informer.addIndexers(indexers);
    }
    AtomicReference<Throwable> lastError = new AtomicReference<>();
    AtomicLong loggedAt = new AtomicLong(Long.MIN_VALUE);
    informer.exceptionHandler((started, error) -> {
      lastError.set(error);
      // At most one line a minute per kind while it keeps failing (it backs off between tries); a read names the last.
      long now = System.nanoTime();
      long last = loggedAt.get();
      if ((last == Long.MIN_VALUE || now - last > LOG_EVERY.toNanos()) && loggedAt.compareAndSet(last, now)) {
        log.warn("informer of {} failed, retrying: {}", kind, error.toString());
      }
      return true;
    });
    CompletableFuture<Void> synced = informer.start().toCompletableFuture();
    synced.thenRun(() -> lastError.set(null));
    Watched<T> watched = new Watched<>(kind, informer, synced, lastError);
    all.add(watched);
    return watched;
  }

  /** Whether every informer has synced: what a worker waits for before it takes planning work (readiness). */
  public boolean synced() {
    return notSynced().isEmpty();
  }

  /** The kinds not synced yet, for a readiness message. */
  public List<String> notSynced() {
    return all.stream().filter(w -> (!w.informer().hasSynced() || !w.informer().isRunning()) && !(w == nodeOverlays && crdMissing(w)))
        .map(Watched::kind).toList();
  }

  private <T> SharedIndexInformer<T> ready(Watched<T> w) {
    try {
      w.synced().get(syncWait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      Throwable last = w.lastError().get();
      throw new NotSyncedException("the worker's cache of " + w.kind() + " has not synced within " + syncWait.toSeconds() + " s"
          + (last == null ? "" : " (last error: " + last.getMessage() + ")"), last);
    } catch (ExecutionException e) {
      throw new NotSyncedException("the informer of " + w.kind() + " failed to start: " + e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NotSyncedException("interrupted waiting for the cache of " + w.kind(), e);
    }
    if (!w.informer().isRunning()) {
      throw new NotSyncedException("the informer of " + w.kind() + " has stopped; its cache is no longer kept", w.lastError().get());
    }
    return w.informer();
  }

  @Override
  public List<NodePool> nodePools() {
    return ready(nodePools).getStore().list();
  }

  @Override
  public List<EC2NodeClass> nodeClasses() {
    return ready(nodeClasses).getStore().list();
  }

  /**
   * Every NodeOverlay; none while the API server answers that it serves no such resource: a cluster upgraded with
   * {@code helm upgrade}, which installs no new CRD, is planned without overlays (there can be none) instead of not at
   * all. The informer keeps retrying, so the overlays are read once their CRD is applied.
   */
  @Override
  public List<NodeOverlay> nodeOverlays() {
    if (!nodeOverlays.informer().hasSynced() && crdMissing(nodeOverlays)) {
      return List.of();
    }
    return ready(nodeOverlays).getStore().list();
  }

  /** Whether the informer's last list failed with 404 (the failure arrives wrapped, as a CompletionException's cause). */
  private static boolean crdMissing(Watched<?> w) {
    for (Throwable t = w.lastError().get(); t != null; t = t.getCause()) {
      if (t instanceof KubernetesClientException e) {
        return e.getCode() == NOT_FOUND;
      }
    }
    return false;
  }

  @Override
  public List<NodeClaim> nodeClaims() {
    return ready(nodeClaims).getStore().list();
  }

  @Override
  public List<NodeClaim> nodeClaimsOfNodePool(String nodePool) {
    return ready(nodeClaims).getIndexer().byIndex(BY_NODEPOOL, nodePool);
  }

  @Override
  public List<Node> nodes() {
    return ready(nodes).getStore().list();
  }

  @Override
  public Optional<Node> nodeByProviderId(String providerId) {
    return ready(nodes).getIndexer().byIndex(BY_PROVIDER_ID, providerId).stream().findFirst();
  }

  @Override
  public Optional<Node> node(String name) {
    return Optional.ofNullable(ready(nodes).getStore().getByKey(name));
  }

  @Override
  public <T extends HasMetadata> T peek(Class<T> type, String name) {
    Watched<?> w = written.get(type);
    if (w == null || !w.informer().hasSynced() || !w.informer().isRunning()) {
      return null;
    }
    return type.cast(w.informer().getStore().getByKey(name));
  }

  @Override
  public List<Pod> boundPods() {
    return ready(pods).getStore().list().stream().filter(p -> !nodeName(p).isEmpty()).toList();
  }

  @Override
  public List<Pod> unboundPods() {
    return ready(pods).getIndexer().byIndex(BY_NODE, "");
  }

  @Override
  public List<PodDisruptionBudget> podDisruptionBudgets() {
    return ready(pdbs).getStore().list();
  }

  @Override
  public List<DaemonSet> daemonSets() {
    return ready(daemonSets).getStore().list();
  }

  @Override
  public List<PersistentVolumeClaim> persistentVolumeClaims() {
    return ready(volumeClaims).getStore().list();
  }

  @Override
  public List<PersistentVolume> persistentVolumes() {
    return ready(volumes).getStore().list();
  }

  @Override
  public List<StorageClass> storageClasses() {
    return ready(storageClasses).getStore().list();
  }

  @Override
  public List<CSINode> csiNodes() {
    return ready(csiNodes).getStore().list();
  }

  @Override
  public List<Namespace> namespaces() {
    return ready(namespaces).getStore().list();
  }

  /**
   * Adds a handler of every pod's adds, updates and deletes, sharing the cache's pod watch (no second watch, no
   * second copy of the pods). A handler added to a running informer is first told of every pod it holds, as adds.
   */
  public void addPodHandler(ResourceEventHandler<Pod> handler) {
    pods.informer().addEventHandler(handler);
  }

  public void removePodHandler(ResourceEventHandler<Pod> handler) {
    pods.informer().removeEventHandler(handler);
  }

  static String providerId(Node node) {
    return node.getSpec() == null ? null : node.getSpec().getProviderID();
  }

  private static String nodeName(Pod pod) {
    return pod.getSpec() == null || pod.getSpec().getNodeName() == null ? "" : pod.getSpec().getNodeName();
  }

  @Override
  public void close() {
    all.forEach(w -> w.informer().close());
  }
}

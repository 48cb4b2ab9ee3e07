package dev.farrier.activities.split;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.MutableClock;
import dev.farrier.activities.kube.ClusterEvent;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.EventSink;
import dev.farrier.activities.kube.EvictionOutcome;
import dev.farrier.activities.kube.Fabric8Cluster;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.activities.kube.PdbBlockedException;
import dev.farrier.activities.kube.PodEvent;
import dev.farrier.activities.kube.PodEvictor;
import dev.farrier.localstack.LocalStack;
import dev.farrier.localstack.LocalStackExtension;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.CapacitySplit;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The capacity split's pass and writes against a real kube-apiserver with its controller manager, scheduler and kwok:
 * the pin and the gate's removal in one patch (the API server accepts a nodeSelector addition only while the pod is
 * gated), a stale read refused, pods claimed by ownership and not by selector, a cache that lags the pass's own writes
 * and evictions, a typo in the annotation and a pod nobody claims left gated with their Events.
 */
@ExtendWith(LocalStackExtension.class)
class CapacitySplitterIT {
  private static final String OTHER_GATE = "example.com/other";
  private static KubernetesClient client;
  private static Fabric8Cluster cluster;
  private static String namespace;
  private static String pool;
  private static String spotPool;
  private static String spotNode;

  @BeforeAll
  static void setUp(LocalStack stack) {
    client = KubeTestSupport.client(stack);
    KubeTestSupport.installCrds(client);
    cluster = new Fabric8Cluster(client);
    namespace = KubeTestSupport.unique("split");
    pool = KubeTestSupport.unique("split-pool");
    spotPool = KubeTestSupport.unique("split-spot");
    spotNode = KubeTestSupport.unique("split-spot-node");
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
    KubeTestSupport.apply(client, KubeTestSupport.nodePoolYaml(pool, "default"));
    KubeTestSupport.apply(client, KubeTestSupport.nodePoolYaml(spotPool, "default"));
  }

  @AfterAll
  static void cleanUp() {
    KubeTestSupport.deleteQuietly(() -> client.namespaces().withName(namespace).delete());
    KubeTestSupport.deleteQuietly(() -> client.resources(dev.farrier.activities.crd.NodePool.class).withName(pool).delete());
    KubeTestSupport.deleteQuietly(() -> client.resources(dev.farrier.activities.crd.NodePool.class).withName(spotPool).delete());
    KubeTestSupport.deleteQuietly(() -> client.nodes().withName(spotNode).delete());
    client.close();
  }

  private static Pod gatedPod(String name, String app, String... extraGates) {
    var builder = new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace).withLabels(Map.of("app", app)).endMetadata()
        .withNewSpec().addNewSchedulingGate().withName(CapacitySplit.GATE).endSchedulingGate();
    for (String g : extraGates) {
      builder = builder.addNewSchedulingGate().withName(g).endSchedulingGate();
    }
    return client.pods().inNamespace(namespace).resource(builder.withNodeSelector(Map.of("intent", pool))
        .addNewContainer().withName("app").withImage("pause").endContainer().endSpec().build()).create();
  }

  /** A Deployment whose pods carry {@code labels}, selected by {@code selector}, gated, on {@code intent}'s nodes. */
  private static SplitWorkload deployment(String name, int replicas, Map<String, String> selector, Map<String, String> labels, String intent,
      String minimum) {
    return deployment(name, replicas, selector, labels, intent, minimum, true);
  }

  private static SplitWorkload deployment(String name, int replicas, Map<String, String> selector, Map<String, String> labels, String intent,
      String minimum, boolean gated) {
    var template = new DeploymentBuilder()
        .withNewMetadata().withName(name).withNamespace(namespace).withAnnotations(Map.of(CapacitySplit.ANNOTATION, minimum)).endMetadata()
        .withNewSpec().withReplicas(replicas).withNewSelector().withMatchLabels(selector).endSelector()
        .withNewTemplate().withNewMetadata().withLabels(labels).endMetadata()
        .withNewSpec().withNodeSelector(Map.of("intent", intent))
        .addNewContainer().withName("app").withImage("pause").endContainer().endSpec().endTemplate().endSpec().build();
    if (gated) {
      template.getSpec().getTemplate().getSpec().setSchedulingGates(List.of(new io.fabric8.kubernetes.api.model.PodSchedulingGate(CapacitySplit.GATE)));
    }
    Deployment d = client.apps().deployments().inNamespace(namespace).resource(template).create();
    KubeTestSupport.awaitTrue(replicas + " pods of " + name, () -> podsOf(name).size() == replicas);
    return SplitWorkload.of(d);
  }

  /** The Deployment's pods, oldest first as the split orders them. */
  private static List<Pod> podsOf(String deployment) {
    return client.pods().inNamespace(namespace).list().getItems().stream()
        .filter(p -> p.getMetadata().getOwnerReferences() != null && p.getMetadata().getOwnerReferences().stream()
            .anyMatch(r -> r.getName().startsWith(deployment + "-") && r.getName().substring(deployment.length() + 1).matches("[a-z0-9]+")))
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .sorted(Comparator.comparing((Pod p) -> Instant.parse(p.getMetadata().getCreationTimestamp())).thenComparing(p -> p.getMetadata().getName()))
        .toList();
  }

  private static Pod read(String name) {
    return client.pods().inNamespace(namespace).withName(name).get();
  }

  private static List<String> gates(Pod p) {
    return p.getSpec().getSchedulingGates() == null ? List.of() : p.getSpec().getSchedulingGates().stream().map(g -> g.getName()).toList();
  }

  private static boolean pinned(Pod p) {
    return p.getSpec().getNodeSelector() != null
        && WellKnown.CAPACITY_ON_DEMAND.equals(p.getSpec().getNodeSelector().get(WellKnown.CAPACITY_TYPE_LABEL));
  }

  private static SplitWorkload workload(String name, String minimum, int replicas, Map<String, String> nodeSelector) {
    return new SplitWorkload("Deployment", namespace, name, UUID.randomUUID().toString(), minimum, replicas, true, nodeSelector, List.of());
  }

  private static CapacitySplitter splitter(ClusterReader reader, PodEvictor evictor, EventSink events, Clock clock) {
    return new CapacitySplitter(reader, new Fabric8SplitWrites(client), evictor, events, cluster::readReplicaSet, clock);
  }

  private static CapacitySplitter splitter() {
    return splitter(cluster, cluster, cluster, Clock.systemUTC());
  }

  /** The live cluster, except that its pod lists are {@code pods}: a cache that shows what it showed earlier. */
  private static ClusterReader showingPods(Supplier<List<Pod>> pods) {
    return (ClusterReader) Proxy.newProxyInstance(ClusterReader.class.getClassLoader(), new Class<?>[] {ClusterReader.class}, (proxy, m, args) -> {
      switch (m.getName()) {
        case "listUnboundPods":
          return pods.get().stream().filter(p -> p.getSpec().getNodeName() == null).toList();
        case "listBoundPods":
          return pods.get().stream().filter(p -> p.getSpec().getNodeName() != null).toList();
        default:
          try {
            return m.invoke(cluster, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
      }
    });
  }

  /** A clock the test moves. */

  /** The cluster's Events, counting the Events asked for about one pod. */
  private static final class CountingEvents implements EventSink {
    final String pod;
    final AtomicInteger podEvents = new AtomicInteger();

    CountingEvents(String pod) {
      this.pod = pod;
    }

    @Override
    public void recordEvent(ClusterEvent event) {
      cluster.recordEvent(event);
    }

    @Override
    public boolean recordPodEvent(PodEvent event, Duration window) {
      if (pod.equals(event.podName())) {
        podEvents.incrementAndGet();
      }
      return cluster.recordPodEvent(event, window);
    }

    @Override
    public void recordObjectEvent(HasMetadata involved, String type, String reason, String message) {
      cluster.recordObjectEvent(involved, type, reason, message);
    }
  }

  @Test
  void thePinAndTheGatesRemovalAreOnePatchThatKeepsOtherGatesAndRefusesAStaleRead() {
    Pod stale = gatedPod("pinned", "pin", OTHER_GATE);
    var writes = new Fabric8SplitWrites(client);
    client.pods().inNamespace(namespace).withName("pinned").edit(p -> {
      p.getMetadata().setLabels(Map.of("app", "pin", "touched", "yes"));
      return p;
    });
    assertFalse(writes.ungate(stale, true), "a read older than the pod's resourceVersion is refused");
    assertEquals(List.of(CapacitySplit.GATE, OTHER_GATE), gates(read("pinned")));

    assertTrue(writes.ungate(read("pinned"), true));
    Pod after = read("pinned");
    assertEquals(List.of(OTHER_GATE), gates(after), "only Farrier's gate removed");
    assertEquals(WellKnown.CAPACITY_ON_DEMAND, after.getSpec().getNodeSelector().get(WellKnown.CAPACITY_TYPE_LABEL));
    assertEquals(pool, after.getSpec().getNodeSelector().get("intent"), "the pod's own selector kept");
  }

  @Test
  void aPassPinsWhatTheMinimumNeedsAndReleasesTheRest() {
    var web = deployment("web", 4, Map.of("app", "web"), Map.of("app", "web"), pool, "50%");
    splitter().pass(List.of(web), () -> false);

    var pods = podsOf("web");
    pods.forEach(p -> assertEquals(List.of(), gates(p), p.getMetadata().getName() + " released"));
    assertEquals(2, pods.stream().filter(CapacitySplitterIT::pinned).count(), "ceil(50% of 4) pinned, no more");
  }

  @Test
  void aPodTheWorkloadsSelectorMatchesButAnotherControllerOwnsIsNotItsToDecide() {
    var shop = deployment("shop", 2, Map.of("app", "shop"), Map.of("app", "shop"), pool, "100%");
    // The canary's pods carry app=shop too: shop's selector matches them, yet they are not shop's.
    deployment("shop-canary", 2, Map.of("app", "shop", "track", "canary"), Map.of("app", "shop", "track", "canary"), pool, "100%");
    splitter().pass(List.of(shop), () -> false);

    var canary = podsOf("shop-canary");
    canary.forEach(p -> assertEquals(List.of(CapacitySplit.GATE), gates(p), p.getMetadata().getName() + " is the canary's, left gated"));
    canary.forEach(p -> assertFalse(pinned(p), p.getMetadata().getName()));
    var own = podsOf("shop").stream().filter(p -> p.getMetadata().getLabels().get("track") == null).toList();
    assertEquals(2, own.size());
    own.forEach(p -> assertTrue(pinned(p) && gates(p).isEmpty(), p.getMetadata().getName() + " is shop's: pinned and released"));
  }

  @Test
  void aPinTheCacheDoesNotShowYetIsCountedSoAnOlderPodTheCacheShowsLateIsNotPinnedToo() {
    var late = deployment("late", 2, Map.of("app", "late"), Map.of("app", "late"), pool, "1");
    var pods = podsOf("late");
    Pod older = pods.get(0);
    Pod younger = pods.get(1);
    var shown = new AtomicReference<List<Pod>>(List.of(younger));
    var splitter = splitter(showingPods(shown::get), cluster, cluster, Clock.systemUTC());
    splitter.pass(List.of(late), () -> false);
    assertTrue(pinned(read(younger.getMetadata().getName())), "the only gated pod the cache showed, pinned");

    // The cache now shows the older pod, and the younger one still as it was before the pin.
    shown.set(List.of(read(older.getMetadata().getName()), younger));
    splitter.pass(List.of(late), () -> false);
    assertEquals(1, podsOf("late").stream().filter(CapacitySplitterIT::pinned).count(), "one pin for a minimum of 1");
    assertEquals(List.of(), gates(read(older.getMetadata().getName())), "the older pod released unpinned");
  }

  @Test
  void aPodListedBothUnboundAndBoundIsCountedOnce() {
    var dup = deployment("dup", 2, Map.of("app", "dup"), Map.of("app", "dup"), pool, "2");
    var pods = podsOf("dup");
    assertTrue(new Fabric8SplitWrites(client).ungate(pods.get(0), true));
    Pod pinnedOne = read(pods.get(0).getMetadata().getName());
    Pod bound = new PodBuilder(pinnedOne).editSpec().withNodeName("a-node-it-was-bound-to-meanwhile").endSpec().build();
    // One read of the cache listed it unbound, the next bound.
    var twice = showingPods(() -> List.of(pinnedOne, bound, read(pods.get(1).getMetadata().getName())));
    splitter(twice, cluster, cluster, Clock.systemUTC()).pass(List.of(dup), () -> false);
    assertTrue(pinned(read(pods.get(1).getMetadata().getName())), "the minimum of 2 needs the second pod pinned too");
  }

  /** The kwok node labelled spot and {@code intent: spotPool}, created once. */
  private static synchronized void spotNodeExists() {
    if (client.nodes().withName(spotNode).get() != null) {
      return;
    }
    KubeTestSupport.createKwokNode(client, spotNode);
    // A merge patch of the labels alone: kwok updates the node's status meanwhile.
    client.nodes().withName(spotNode).patch(PatchContext.of(PatchType.JSON_MERGE), client.getKubernetesSerialization().asJson(
        Map.of("metadata", Map.of("labels", Map.of("intent", spotPool, WellKnown.CAPACITY_TYPE_LABEL, WellKnown.CAPACITY_SPOT)))));
  }

  /** The evictions asked for, each done on the cluster. */
  private static PodEvictor counting(AtomicInteger evictions) {
    return new PodEvictor() {
      @Override
      public List<Pod> listPodsOnNode(String nodeName) {
        return cluster.listPodsOnNode(nodeName);
      }

      @Override
      public EvictionOutcome evictPod(Pod pod) throws PdbBlockedException {
        evictions.incrementAndGet();
        return cluster.evictPod(pod);
      }

      @Override
      public boolean deletePod(Pod pod, Long gracePeriodSeconds) {
        return cluster.deletePod(pod, gracePeriodSeconds);
      }
    };
  }

  private static void awaitRunningOnSpot(String deployment, int count) {
    KubeTestSupport.awaitTrue(count + " " + deployment + " pods on the spot node", () -> podsOf(deployment).stream()
        .filter(p -> spotNode.equals(p.getSpec().getNodeName()) && "Running".equals(p.getStatus().getPhase())).count() == count);
  }

  @Test
  void aPodWhoseReplacementWouldComeBackUngatedIsCountedButNeverEvicted() {
    spotNodeExists();
    // Its ReplicaSet's template has no gate (the gate added to the Deployment later, its rollout not done).
    var legacy = deployment("legacy", 2, Map.of("app", "legacy"), Map.of("app", "legacy"), spotPool, "1", false);
    awaitRunningOnSpot("legacy", 2);
    var nowGated = new SplitWorkload(legacy.kind(), namespace, legacy.name(), legacy.uid(), "1", 2, true, legacy.nodeSelector(), List.of());
    var evictions = new AtomicInteger();
    splitter(cluster, counting(evictions), cluster, Clock.systemUTC()).pass(List.of(nowGated), () -> false);
    assertEquals(0, evictions.get(), "its replacement would be released ungated onto spot and evicted again, forever");
  }

  @Test
  void oneEvictionPerWorkloadUntilTheCacheShowsThePodLeave() {
    spotNodeExists();
    var batch = deployment("batch", 2, Map.of("app", "batch"), Map.of("app", "batch"), spotPool, "0");
    splitter().pass(List.of(batch), () -> false);
    awaitRunningOnSpot("batch", 2);
    // The spot pool offers on-demand too (its NodePool says on-demand): a minimum of 1 is met by rebalancing.
    List<Pod> before = podsOf("batch");
    var evictions = new AtomicInteger();
    var clock = new MutableClock(Instant.now());
    var splitter = splitter(showingPods(() -> before), counting(evictions), cluster, clock);
    var one = batch.withMinimum("1");
    splitter.pass(List.of(one), () -> false);
    assertEquals(1, evictions.get(), "the youngest spot pod evicted");
    clock.advance(Duration.ofMinutes(1));
    splitter.pass(List.of(one), () -> false);
    assertEquals(1, evictions.get(), "the cache still shows the evicted pod running: no second eviction");
  }

  @Test
  void warningsAreSaidOnceWhateverTheCountsAndAPodNobodyClaimsOnlyOnceItHasWaited() {
    var typo = workload("typo", "thirty", 1, Map.of("intent", pool));
    gatedPod("loner", "nobody");
    var clock = new MutableClock(Instant.now());
    var events = new CountingEvents("loner");
    var splitter = splitter(cluster, cluster, events, clock);
    splitter.pass(List.of(typo), () -> false);
    assertEquals(0, events.podEvents.get(), "a pod just created may belong to a workload the informer has not shown yet");

    clock.advance(Duration.ofMinutes(1));
    var nowhere = workload("nowhere", "1", 1, Map.of("intent", "no-pool-has-this"));
    splitter.pass(List.of(typo, nowhere), () -> false);
    assertEquals(1, events.podEvents.get());
    var scaled = new SplitWorkload(nowhere.kind(), namespace, nowhere.name(), nowhere.uid(), "1", 2, true, nowhere.nodeSelector(), List.of());
    splitter.pass(List.of(typo, scaled), () -> false);
    assertEquals(1, events.podEvents.get(), "said within the window: not asked of the API server again");

    assertEquals(List.of(CapacitySplit.GATE), gates(read("loner")));
    var all = client.v1().events().inNamespace(namespace).list().getItems();
    assertTrue(all.stream().anyMatch(e -> "CapacitySplitInvalid".equals(e.getReason()) && "Deployment".equals(e.getInvolvedObject().getKind())
        && "typo".equals(e.getInvolvedObject().getName()) && e.getMessage().contains(CapacitySplit.ANNOTATION + " \"thirty\"")), all.toString());
    assertTrue(all.stream().anyMatch(e -> "CapacitySplitUndecided".equals(e.getReason()) && "loner".equals(e.getInvolvedObject().getName())),
        all.toString());
    List<String> unsatisfiable = new ArrayList<>();
    all.stream().filter(e -> "CapacitySplitUnsatisfiable".equals(e.getReason()) && "nowhere".equals(e.getInvolvedObject().getName()))
        .forEach(e -> unsatisfiable.add(e.getMessage()));
    assertEquals(1, unsatisfiable.size(), "a scale from 1 to 2 replicas is no new warning: " + unsatisfiable);
  }
}

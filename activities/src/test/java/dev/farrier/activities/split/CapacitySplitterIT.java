package dev.farrier.activities.split;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.kube.Fabric8Cluster;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.localstack.LocalStack;
import dev.farrier.localstack.LocalStackExtension;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.CapacitySplit;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The capacity split's pass and writes against a real kube-apiserver: the pin and the gate's removal in one patch (the
 * API server accepts a nodeSelector addition only while the pod is gated), a stale read refused, a typo in the
 * annotation and a pod nobody claims left gated with their Events.
 */
@ExtendWith(LocalStackExtension.class)
class CapacitySplitterIT {
  private static final String OTHER_GATE = "example.com/other";
  private static KubernetesClient client;
  private static Fabric8Cluster cluster;
  private static String namespace;
  private static String pool;

  @BeforeAll
  static void setUp(LocalStack stack) {
    client = KubeTestSupport.client(stack);
    KubeTestSupport.installCrds(client);
    cluster = new Fabric8Cluster(client);
    namespace = KubeTestSupport.unique("split");
    pool = KubeTestSupport.unique("split-pool");
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
    KubeTestSupport.apply(client, KubeTestSupport.nodePoolYaml(pool, "default"));
  }

  @AfterAll
  static void cleanUp() {
    KubeTestSupport.deleteQuietly(() -> client.namespaces().withName(namespace).delete());
    KubeTestSupport.deleteQuietly(() -> client.resources(dev.farrier.activities.crd.NodePool.class).withName(pool).delete());
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

  private static Pod read(String name) {
    return client.pods().inNamespace(namespace).withName(name).get();
  }

  private static List<String> gates(Pod p) {
    return p.getSpec().getSchedulingGates() == null ? List.of() : p.getSpec().getSchedulingGates().stream().map(g -> g.getName()).toList();
  }

  private static SplitWorkload workload(String app, String minimum, int replicas) {
    return new SplitWorkload("Deployment", namespace, app, UUID.randomUUID().toString(), minimum, replicas,
        new LabelSelectorBuilder().withMatchLabels(Map.of("app", app)).build(), true, Map.of("intent", pool));
  }

  private static CapacitySplitter splitter() {
    return new CapacitySplitter(cluster, new Fabric8SplitWrites(client, Clock.systemUTC()), cluster, cluster, Clock.systemUTC());
  }

  @Test
  void thePinAndTheGatesRemovalAreOnePatchThatKeepsOtherGatesAndRefusesAStaleRead() {
    Pod stale = gatedPod("pinned", "pin", OTHER_GATE);
    var writes = new Fabric8SplitWrites(client, Clock.systemUTC());
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
  void aPassPinsWhatTheMinimumNeedsReleasesTheRestAndDecidesNothingTwice() {
    for (int i = 0; i < 4; i++) {
      gatedPod("web-" + i, "web");
    }
    var splitter = splitter();
    var web = workload("web", "50%", 4);
    splitter.pass(List.of(web), () -> false);
    splitter.pass(List.of(web), () -> false);

    long pinned = 0;
    for (int i = 0; i < 4; i++) {
      Pod p = read("web-" + i);
      assertEquals(List.of(), gates(p), p.getMetadata().getName() + " released");
      if (p.getSpec().getNodeSelector() != null && WellKnown.CAPACITY_ON_DEMAND.equals(p.getSpec().getNodeSelector().get(WellKnown.CAPACITY_TYPE_LABEL))) {
        pinned++;
      }
    }
    assertEquals(2, pinned, "ceil(50% of 4) pinned, no more");
  }

  @Test
  void aTypoInTheAnnotationAndAPodNobodyClaimsStayGatedWithTheirEvents() {
    gatedPod("typo-0", "typo");
    gatedPod("loner", "nobody");
    var typo = workload("typo", "thirty", 1);
    splitter().pass(List.of(typo), () -> false);

    assertEquals(List.of(CapacitySplit.GATE), gates(read("typo-0")));
    assertEquals(List.of(CapacitySplit.GATE), gates(read("loner")));
    var events = client.v1().events().inNamespace(namespace).list().getItems();
    assertTrue(events.stream().anyMatch(e -> "CapacitySplitInvalid".equals(e.getReason()) && "Deployment".equals(e.getInvolvedObject().getKind())
        && "typo".equals(e.getInvolvedObject().getName()) && e.getMessage().contains(CapacitySplit.ANNOTATION + " \"thirty\"")),
        events.toString());
    assertTrue(events.stream().anyMatch(e -> "CapacitySplitUndecided".equals(e.getReason()) && "loner".equals(e.getInvolvedObject().getName())),
        events.toString());
  }
}

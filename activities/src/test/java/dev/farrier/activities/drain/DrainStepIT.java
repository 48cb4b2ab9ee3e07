package dev.farrier.activities.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import dev.farrier.activities.kube.Fabric8Cluster;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.localstack.LocalStack;
import dev.farrier.localstack.LocalStackExtension;
import dev.farrier.workflows.activities.DrainGroup;
import dev.farrier.workflows.activities.DrainRequest;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.HeldPod;
import dev.farrier.workflows.activities.NodeActivities;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.temporal.activity.ActivityOptions;
import io.temporal.testing.TestActivityEnvironment;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One drain pass against a real kube-apiserver (with its disruption controller): a Deployment behind a
 * PodDisruptionBudget that allows no eviction, a pod without a controller, a do-not-disrupt pod, a DaemonSet pod that
 * tolerates every taint (so {@code karpenter.sh/disrupted} too: never drained) and a mirror pod, on a kwok node.
 */
@ExtendWith(LocalStackExtension.class)
class DrainStepIT {
  private static final String APP = "web";
  private static final String AGENT = "agent";
  private static final String MIRROR = "static-web";
  private static final String LOGGER = "logger";
  private static final String DNS = "dns";

  private KubernetesClient client;
  private Fabric8Cluster cluster;
  private final TestActivityEnvironment env = TestActivityEnvironment.newInstance();
  private NodeActivities nodes;
  private String namespace;
  private String nodeName;

  @BeforeEach
  void setUp(LocalStack stack) {
    client = KubeTestSupport.client(stack);
    cluster = new Fabric8Cluster(client);
    env.registerActivitiesImplementations(new NodeActivitiesImpl(cluster, new SimpleMeterRegistry()));
    nodes = env.newActivityStub(NodeActivities.class, ActivityOptions.newBuilder()
        .setStartToCloseTimeout(Duration.ofMinutes(2)).setHeartbeatTimeout(Duration.ofSeconds(10)).build());
    namespace = KubeTestSupport.unique("drain");
    nodeName = KubeTestSupport.unique("kwok");
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
    KubeTestSupport.createKwokNode(client, nodeName);
    client.apps().deployments().inNamespace(namespace).resource(deployment(APP, 2, Map.of())).create();
    client.apps().deployments().inNamespace(namespace).resource(deployment("pinned", 1,
        Map.of("karpenter.sh/do-not-disrupt", "true"))).create();
    client.pods().inNamespace(namespace).resource(new PodBuilder()
        .withNewMetadata().withName("loner").endMetadata()
        .withNewSpec().withNodeName(nodeName).withTerminationGracePeriodSeconds(0L)
          .addNewContainer().withName("c").withImage("pause").endContainer()
        .endSpec().build()).create();
    client.policy().v1().podDisruptionBudget().inNamespace(namespace).resource(new PodDisruptionBudgetBuilder()
        .withNewMetadata().withName(APP).endMetadata()
        .withNewSpec().withMaxUnavailable(new IntOrString(0))
          .withNewSelector().addToMatchLabels("app", APP).endSelector()
        .endSpec().build()).create();
    client.apps().daemonSets().inNamespace(namespace).resource(new DaemonSetBuilder(daemonSet(AGENT))
        .editSpec().editTemplate().editSpec().addNewToleration().withOperator("Exists").endToleration().endSpec().endTemplate()
        .endSpec().build()).create();
    client.pods().inNamespace(namespace).resource(new PodBuilder()
        .withNewMetadata().withName(MIRROR).addToAnnotations("kubernetes.io/config.mirror", "static").endMetadata()
        .withNewSpec().withNodeName(nodeName).withTerminationGracePeriodSeconds(0L)
          .addNewContainer().withName("c").withImage("pause").endContainer()
        .endSpec().build()).create();
    KubeTestSupport.awaitTrue("6 pods running and the PDB observed", () -> runningPods() == 6 && pdbObserved());
  }

  @AfterEach
  void tearDown() {
    KubeTestSupport.deleteQuietly(() -> client.namespaces().withName(namespace).delete());
    KubeTestSupport.deleteQuietly(() -> cluster.deleteNode(nodeName));
    env.close();
    cluster.close();
    client.close();
  }

  @Test
  void aPassReportsEveryHeldPodWithItsCauseAndEvictsNothingThePdbProtects() {
    DrainStatus status = nodes.drainStep(new DrainRequest("c", nodeName, "nc", false, true));

    assertEquals(List.of(), status.evicted());
    assertEquals(4, status.remaining().size(), status.toString());
    Map<HeldPod.Cause, Set<String>> byCause = status.held().stream().collect(Collectors.groupingBy(HeldPod::cause,
        Collectors.mapping(h -> h.pod().startsWith(namespace + "/" + APP) ? APP : h.pod().substring(namespace.length() + 1)
            .replaceAll("-[a-z0-9]+-[a-z0-9]+$", ""), Collectors.toSet())));
    assertEquals(Map.of(HeldPod.Cause.PDB, Set.of(APP), HeldPod.Cause.NO_CONTROLLER, Set.of("loner"),
        HeldPod.Cause.DO_NOT_DISRUPT, Set.of("pinned")), byCause);
    assertEquals(2, status.held().stream().filter(h -> h.cause() == HeldPod.Cause.PDB).count());
    assertTrue(status.held().stream().filter(h -> h.cause() == HeldPod.Cause.PDB)
        .allMatch(h -> h.detail().equals(namespace + "/" + APP)), status.held().toString());
    assertEquals(List.of(namespace + "/" + APP), status.blockingPdbs());
    assertEquals(6, runningPods(), "nothing was evicted");
  }

  @Test
  void relaxingThePdbLetsTheNextPassEvictAndAForcedPassDeletesTheRest() {
    nodes.drainStep(new DrainRequest("c", nodeName, "nc", false, true));
    client.policy().v1().podDisruptionBudget().inNamespace(namespace).withName(APP)
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"maxUnavailable\":1}}");
    KubeTestSupport.awaitTrue("the PDB allows one disruption", () -> {
      var pdb = client.policy().v1().podDisruptionBudget().inNamespace(namespace).withName(APP).get();
      return pdb.getStatus() != null && Integer.valueOf(1).equals(pdb.getStatus().getDisruptionsAllowed());
    });

    DrainStatus relaxed = nodes.drainStep(new DrainRequest("c", nodeName, "nc", false, true));
    // One eviction at least; a second one too when the first pod's replacement is Ready before the pass reaches it.
    assertFalse(relaxed.evicted().isEmpty(), relaxed.toString());
    assertTrue(relaxed.evicted().stream().allMatch(p -> p.startsWith(namespace + "/" + APP)), relaxed.toString());
    // The second web pod may still be refused (its PDB allows one more only once the first one's successor is Ready).
    assertTrue(relaxed.held().stream().map(HeldPod::cause).collect(Collectors.toSet())
        .containsAll(Set.of(HeldPod.Cause.NO_CONTROLLER, HeldPod.Cause.DO_NOT_DISRUPT)), "the others are still held: " + relaxed);

    DrainStatus forced = nodes.drainStep(new DrainRequest("c", nodeName, "nc", true, true));
    assertTrue(forced.evicted().containsAll(List.of(namespace + "/loner")), forced.toString());
    assertTrue(forced.evicted().stream().anyMatch(p -> p.startsWith(namespace + "/pinned")), "do-not-disrupt yields to a forced drain");
    assertEquals(List.of(), forced.held());
    assertTrue(forced.evicted().stream().noneMatch(p -> p.startsWith(namespace + "/" + AGENT) || p.equals(namespace + "/" + MIRROR)),
        "even a forced drain leaves mirror pods and pods that tolerate karpenter.sh/disrupted: " + forced);
    assertTrue(client.pods().inNamespace(namespace).withName(MIRROR).get().getMetadata().getDeletionTimestamp() == null);
    assertEquals(1, client.pods().inNamespace(namespace).withLabel("app", AGENT).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null).count(), "the DaemonSet pod was not deleted");
  }

  @Test
  void aNodeWhoseInstanceIsGoneHasItsPodsReleasedAtOncePastThePdb() {
    DrainStatus status = nodes.drainStep(new DrainRequest("c", nodeName, "nc", false, false, true));

    assertEquals(4, status.evicted().size(), "the PDB-held, pinned and lone pods, all dead with their instance: " + status);
    assertEquals(List.of(), status.held());
    // Deleted with no grace period: gone from the API at once (their Deployments make new ones, pinned to this node).
    status.evicted().forEach(p -> assertTrue(client.pods().inNamespace(namespace).withName(p.substring(namespace.length() + 1)).get() == null,
        p + " is gone"));
    assertTrue(status.evicted().stream().noneMatch(p -> p.startsWith(namespace + "/" + AGENT) || p.equals(namespace + "/" + MIRROR)));
  }

  @Test
  void aNodeGoingAwayAnywayEvictsPodsWithoutAController() {
    DrainStatus status = nodes.drainStep(new DrainRequest("c", nodeName, "nc", false, false, false, true));

    assertEquals(List.of(namespace + "/loner"), status.evicted(), "nothing else: not the DaemonSet pod, not the mirror pod");
    assertTrue(status.held().stream().noneMatch(h -> h.cause() == HeldPod.Cause.NO_CONTROLLER));
    assertFalse(status.remaining().contains(namespace + "/loner"),
        "gone (kwok removes it at once) before the pass reported: " + status);
    assertTrue(client.v1().events().inNamespace("default").withField("involvedObject.name", nodeName).list().getItems().stream()
        .anyMatch(e -> "Evicted".equals(e.getReason()) && e.getMessage().equals("evicted " + namespace + "/loner")),
        "the pass recorded its eviction on the node");
  }

  @Test
  void groupsLeaveInKarpentersOrderAndAHeldGroupHoldsTheLaterOnesBack() {
    client.apps().daemonSets().inNamespace(namespace).resource(daemonSet(LOGGER)).create();
    client.apps().deployments().inNamespace(namespace).resource(new DeploymentBuilder(deployment(DNS, 1, Map.of()))
        .editSpec().editTemplate().editSpec().withPriorityClassName("system-cluster-critical").endSpec().endTemplate().endSpec()
        .build()).create();
    KubeTestSupport.awaitTrue("the DaemonSet pod and the critical pod running", () -> runningPods() == 8);
    cluster.addNodeTaint(nodeName, WellKnown.DISRUPTED_TAINT); // as the replacement does before it drains

    DrainStatus held = nodes.drainStep(new DrainRequest("c", nodeName, "nc", false, true));
    assertEquals(List.of(), held.evicted(), "the PDB, do-not-disrupt and the lone pod hold the first group: " + held);
    assertEquals(DrainGroup.NON_CRITICAL, held.group());
    assertEquals(Set.of(LOGGER, DNS), apps(held.deferred()), "the later groups wait, named");
    assertEquals(Set.of(APP, "pinned", "loner", LOGGER, DNS), apps(held.remaining()));

    client.apps().deployments().inNamespace(namespace).withName(APP).delete();
    client.apps().deployments().inNamespace(namespace).withName("pinned").delete();
    client.pods().inNamespace(namespace).withName("loner").delete();
    KubeTestSupport.awaitTrue("the non-critical pods gone", () -> apps(podsOnNode()).equals(Set.of(AGENT, MIRROR, LOGGER, DNS)));

    DrainStatus daemons = nodes.drainStep(new DrainRequest("c", nodeName, "nc", false, true));
    assertEquals(DrainGroup.NON_CRITICAL_DAEMONSET, daemons.group());
    assertEquals(Set.of(LOGGER), apps(daemons.evicted()), daemons.toString());
    assertEquals(Set.of(DNS), apps(daemons.deferred()));
    KubeTestSupport.awaitTrue("the DaemonSet pod gone, not recreated on the tainted node", () -> {
      var ds = client.apps().daemonSets().inNamespace(namespace).withName(LOGGER).get();
      return !apps(podsOnNode()).contains(LOGGER) && ds.getStatus() != null
          && Integer.valueOf(0).equals(ds.getStatus().getDesiredNumberScheduled());
    });

    DrainStatus critical = nodes.drainStep(new DrainRequest("c", nodeName, "nc", false, true));
    assertEquals(DrainGroup.CRITICAL, critical.group());
    assertEquals(Set.of(DNS), apps(critical.evicted()), critical.toString());
    assertEquals(List.of(), critical.deferred());
    assertTrue(apps(podsOnNode()).contains(AGENT), "the DaemonSet pod that tolerates karpenter.sh/disrupted stays");
  }

  /** The app each pod (namespace/name) belongs to: its name without the ReplicaSet's or DaemonSet's suffixes. */
  /** A pod's app: its name less the ReplicaSet's pod-template-hash (1 to 10 characters, the digits of a 32-bit hash) and the 5-character suffix. */
  private Set<String> apps(List<String> pods) {
    return pods.stream().map(p -> p.substring(namespace.length() + 1).replaceAll("(-[a-z0-9]{1,10})?-[a-z0-9]{5}$", ""))
        .collect(Collectors.toSet());
  }

  private List<String> podsOnNode() {
    return client.pods().inNamespace(namespace).list().getItems().stream()
        .filter(p -> nodeName.equals(p.getSpec().getNodeName()))
        .map(p -> namespace + "/" + p.getMetadata().getName()).toList();
  }

  private long runningPods() {
    return client.pods().inNamespace(namespace).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null && "Running".equals(p.getStatus().getPhase())).count();
  }

  private boolean pdbObserved() {
    var pdb = client.policy().v1().podDisruptionBudget().inNamespace(namespace).withName(APP).get();
    return pdb != null && pdb.getStatus() != null && pdb.getStatus().getObservedGeneration() != null
        && pdb.getStatus().getObservedGeneration().equals(pdb.getMetadata().getGeneration())
        && Integer.valueOf(2).equals(pdb.getStatus().getCurrentHealthy());
  }

  private DaemonSet daemonSet(String app) {
    return new DaemonSetBuilder()
        .withNewMetadata().withName(app).endMetadata()
        .withNewSpec()
          .withNewSelector().addToMatchLabels("app", app).endSelector()
          .withTemplate(podTemplate(app, Map.of()))
        .endSpec().build();
  }

  private io.fabric8.kubernetes.api.model.apps.Deployment deployment(String app, int replicas, Map<String, String> annotations) {
    return new DeploymentBuilder()
        .withNewMetadata().withName(app).endMetadata()
        .withNewSpec()
          .withReplicas(replicas)
          .withNewSelector().addToMatchLabels("app", app).endSelector()
          .withTemplate(podTemplate(app, annotations))
        .endSpec()
        .build();
  }

  /** Pods pinned to the test's node, gone at once when deleted. */
  private PodTemplateSpec podTemplate(String app, Map<String, String> annotations) {
    return new PodTemplateSpecBuilder()
        .withNewMetadata().addToLabels("app", app).addToAnnotations(annotations).endMetadata()
        .withNewSpec()
          .withNodeSelector(Map.of("kubernetes.io/hostname", nodeName))
          .withTerminationGracePeriodSeconds(0L)
          .addNewContainer().withName(app).withImage("pause").endContainer()
        .endSpec()
        .build();
  }
}

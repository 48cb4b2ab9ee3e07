package dev.farrier.activities.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.kube.Fabric8Cluster;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.localstack.LocalStack;
import dev.farrier.localstack.LocalStackExtension;
import dev.farrier.workflows.activities.DrainRequest;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.NodeActivities;
import dev.farrier.workflows.activities.SurgeOutcome;
import dev.farrier.workflows.activities.SurgeOutcome.Result;
import dev.farrier.workflows.activities.SurgePass;
import dev.farrier.workflows.activities.SurgeRequest;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.temporal.activity.ActivityOptions;
import io.temporal.testing.TestActivityEnvironment;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The surge activity against a real kube-apiserver and its Deployment controller, on a kwok node: a drain pass names
 * only the PDB-held pods whose workload opted in; a surge restarts the Deployment once (its mark and restartedAt are
 * not written again by later calls), a new pod that cannot start (the node is cordoned and the pods are pinned to it)
 * is reported surging and then stalled once the Deployment's progress deadline passes, never restarted again, the old
 * pod untouched; a pod with a ReadWriteOnce claim is refused with its Event.
 */
@ExtendWith(LocalStackExtension.class)
class SurgesIT {
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
        .setStartToCloseTimeout(Duration.ofSeconds(45)).setHeartbeatTimeout(Duration.ofSeconds(10)).build());
    namespace = KubeTestSupport.unique("surge");
    nodeName = KubeTestSupport.unique("kwok");
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
    KubeTestSupport.createKwokNode(client, nodeName);
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
  void anOptedInPodIsSurgedOnceAndASurgeThatNeverGetsReadyIsReportedStalledNotRestarted() {
    create(deployment("web", Map.of(SurgeRules.ANNOTATION, "true")));
    create(deployment("plain", Map.of()));
    pdb("web");
    pdb("plain");
    KubeTestSupport.awaitTrue("both pods running and the PDBs observed", () -> runningPods() == 2 && pdbsObserved());
    Pod web = appPod("web");
    String pod = namespace + "/" + web.getMetadata().getName();

    DrainStatus pass = nodes.drainStep(new DrainRequest("c", nodeName, "nc", false, true, false, false, null));

    assertEquals(2, pass.blockingPdbs().size(), pass.toString());
    assertEquals(List.of(pod), pass.surgeable(), "only the pod whose workload opted in");

    cluster.cordonNode(nodeName); // the new pod, pinned to this node, can never be scheduled
    SurgeOutcome started = surge(new SurgeRequest("c", nodeName, "nc", null, pod, null));

    assertEquals(new SurgeOutcome(pod, namespace + "/web", Result.STARTED, null), started);
    Deployment restarted = client.apps().deployments().inNamespace(namespace).withName("web").get();
    assertEquals(web.getMetadata().getUid(), restarted.getMetadata().getAnnotations().get(SurgeRules.SURGED_POD_ANNOTATION));
    String restartedAt = restarted.getSpec().getTemplate().getMetadata().getAnnotations().get(SurgeRules.RESTARTED_AT_ANNOTATION);
    assertTrue(restartedAt != null && !restartedAt.isEmpty());
    assertEquals(1, events("Deployment", "web", "SurgeStarted").size());
    assertEquals(1, events("Node", nodeName, "SurgeStarted").size());

    SurgeOutcome again = surge(new SurgeRequest("c", nodeName, "nc", null, pod, started));
    assertEquals(Result.SURGING, again.result(), again.toString());
    assertEquals(1, events("Deployment", "web", "SurgeStarted").getFirst().getCount(), "a surge in flight is not recorded again");
    String plainPod = namespace + "/" + appPod("plain").getMetadata().getName();
    assertEquals(Result.NOT_APPLICABLE, surge(new SurgeRequest("c", nodeName, "nc", null, plainPod, null)).result());
    KubeTestSupport.awaitTrue("the Deployment's progress deadline passed", () -> {
      var outcome = surge(new SurgeRequest("c", nodeName, "nc", null, pod, again));
      return outcome.result() == Result.STALLED;
    });
    SurgeOutcome stalled = surge(new SurgeRequest("c", nodeName, "nc", null, pod, again));

    assertTrue(stalled.reason().contains("progressDeadlineSeconds (2s)"), stalled.reason());
    Deployment after = client.apps().deployments().inNamespace(namespace).withName("web").get();
    assertEquals(restartedAt, after.getSpec().getTemplate().getMetadata().getAnnotations().get(SurgeRules.RESTARTED_AT_ANNOTATION),
        "restarted once, never again");
    assertEquals(restarted.getMetadata().getGeneration(), after.getMetadata().getGeneration());
    assertFalse(events("Deployment", "web", "SurgeStalled").isEmpty());
    Pod old = client.pods().inNamespace(namespace).withName(web.getMetadata().getName()).get();
    assertNull(old.getMetadata().getDeletionTimestamp(), "the old pod still serves: Farrier never removed it");
    var plain = client.apps().deployments().inNamespace(namespace).withName("plain").get();
    assertFalse(Map.copyOf(java.util.Objects.requireNonNullElse(plain.getSpec().getTemplate().getMetadata().getAnnotations(), Map.of()))
        .containsKey(SurgeRules.RESTARTED_AT_ANNOTATION), "the workload that did not opt in is untouched");
    assertEquals(1L, plain.getMetadata().getGeneration());
  }

  @Test
  void aSurgeWhoseTemplateIsWrittenBackIsReportedStalledNotWaitedForForEver() {
    create(new DeploymentBuilder(deployment("web", Map.of(SurgeRules.ANNOTATION, "true"))).editSpec()
        .withProgressDeadlineSeconds(600).endSpec().build());
    KubeTestSupport.awaitTrue("the Deployment settled", () -> {
      var status = client.apps().deployments().inNamespace(namespace).withName("web").get().getStatus();
      return status != null && Integer.valueOf(1).equals(status.getAvailableReplicas())
          && Integer.valueOf(1).equals(status.getUpdatedReplicas()) && Integer.valueOf(1).equals(status.getReplicas());
    });
    Pod web = appPod("web");
    String pod = namespace + "/" + web.getMetadata().getName();
    cluster.cordonNode(nodeName); // the new pod can never be scheduled: the surge stays in flight
    SurgeOutcome started = surge(new SurgeRequest("c", nodeName, "nc", null, pod, null));
    assertEquals(Result.STARTED, started.result(), started.toString());

    // What a GitOps tool or an operator does: the template back as it was, without restartedAt.
    client.apps().deployments().inNamespace(namespace).withName("web").edit(d -> new DeploymentBuilder(d).editSpec()
        .editTemplate().editMetadata().removeFromAnnotations(SurgeRules.RESTARTED_AT_ANNOTATION).endMetadata().endTemplate()
        .endSpec().build());
    KubeTestSupport.awaitTrue("the rollout back to the old template finished", () -> {
      var outcome = surge(new SurgeRequest("c", nodeName, "nc", null, pod, started));
      return outcome.result() == Result.STALLED;
    });
    SurgeOutcome stalled = surge(new SurgeRequest("c", nodeName, "nc", null, pod, started));

    assertTrue(stalled.reason().startsWith("the Deployment's rollout finished without replacing the pod"), stalled.reason());
    assertNull(client.pods().inNamespace(namespace).withName(web.getMetadata().getName()).get().getMetadata()
        .getDeletionTimestamp(), "the old pod still serves");
  }

  @Test
  void aPodWithAReadWriteOnceClaimIsRefusedWithItsEventAndTheDeploymentIsUntouched() {
    client.persistentVolumeClaims().inNamespace(namespace).resource(new PersistentVolumeClaimBuilder()
        .withNewMetadata().withName("data").endMetadata()
        .withNewSpec().withAccessModes("ReadWriteOnce")
          .withNewResources().addToRequests("storage", new Quantity("1Gi")).endResources()
        .endSpec().build()).create();
    create(new DeploymentBuilder(deployment("db", Map.of(SurgeRules.ANNOTATION, "true")))
        .editSpec().editTemplate().editSpec()
          .addNewVolume().withName("data").withNewPersistentVolumeClaim().withClaimName("data").endPersistentVolumeClaim().endVolume()
        .endSpec().endTemplate().endSpec().build());
    KubeTestSupport.awaitTrue("the db pod created", () -> !pods("db").isEmpty());
    String pod = namespace + "/" + pods("db").getFirst().getMetadata().getName();

    SurgeOutcome refused = surge(new SurgeRequest("c", nodeName, "nc", null, pod, null));

    assertEquals(Result.REFUSED, refused.result());
    assertEquals("the pod mounts PersistentVolumeClaim data (ReadWriteOnce): a new pod on another node cannot share it",
        refused.reason());
    List<Event> events = events("Deployment", "db", "SurgeRefused");
    assertEquals(1, events.size());
    assertEquals("Warning", events.getFirst().getType());
    assertTrue(events.getFirst().getMessage().contains("ReadWriteOnce"), events.getFirst().getMessage());
    surge(new SurgeRequest("c", nodeName, "nc", null, pod, refused));
    assertEquals(1, events("Deployment", "db", "SurgeRefused").getFirst().getCount(), "the same refusal is not recorded again");
    assertNull(client.apps().deployments().inNamespace(namespace).withName("db").get().getMetadata().getAnnotations()
        .get(SurgeRules.SURGED_POD_ANNOTATION));
  }

  /** One pod's surge, as a pass of one asks for it. */
  private SurgeOutcome surge(SurgeRequest request) {
    return nodes.surge(new SurgePass(List.of(request))).outcomes().getFirst();
  }

  private void create(Deployment deployment) {
    client.apps().deployments().inNamespace(namespace).resource(deployment).create();
  }

  private void pdb(String app) {
    client.policy().v1().podDisruptionBudget().inNamespace(namespace).resource(new PodDisruptionBudgetBuilder()
        .withNewMetadata().withName(app).endMetadata()
        .withNewSpec().withMinAvailable(new IntOrString(1))
          .withNewSelector().addToMatchLabels("app", app).endSelector()
        .endSpec().build()).create();
  }

  /** One replica pinned to the test's node, maxSurge 1 / maxUnavailable 0, a progress deadline of 2 s, {@code annotations} on its pod template. */
  private Deployment deployment(String app, Map<String, String> annotations) {
    return new DeploymentBuilder()
        .withNewMetadata().withName(app).endMetadata()
        .withNewSpec()
          .withReplicas(1)
          .withProgressDeadlineSeconds(2)
          .withNewStrategy().withType("RollingUpdate").withNewRollingUpdate()
            .withMaxSurge(new IntOrString(1)).withMaxUnavailable(new IntOrString(0)).endRollingUpdate().endStrategy()
          .withNewSelector().addToMatchLabels("app", app).endSelector()
          .withTemplate(new PodTemplateSpecBuilder()
            .withNewMetadata().addToLabels("app", app).addToAnnotations(annotations).endMetadata()
            .withNewSpec()
              .withNodeSelector(Map.of("kubernetes.io/hostname", nodeName))
              .withTerminationGracePeriodSeconds(0L)
              .addNewContainer().withName(app).withImage("pause").endContainer()
            .endSpec()
            .build())
        .endSpec()
        .build();
  }

  private List<Pod> pods(String app) {
    return client.pods().inNamespace(namespace).withLabel("app", app).list().getItems();
  }

  private Pod appPod(String app) {
    return pods(app).getFirst();
  }

  private long runningPods() {
    return client.pods().inNamespace(namespace).list().getItems().stream()
        .filter(p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase())).count();
  }

  private boolean pdbsObserved() {
    return client.policy().v1().podDisruptionBudget().inNamespace(namespace).list().getItems().stream()
        .allMatch(p -> p.getStatus() != null && p.getStatus().getObservedGeneration() != null
            && p.getStatus().getObservedGeneration() >= 1 && p.getStatus().getCurrentHealthy() != null
            && p.getStatus().getCurrentHealthy() >= 1);
  }

  private List<Event> events(String kind, String name, String reason) {
    return client.v1().events().inAnyNamespace().list().getItems().stream()
        .filter(e -> e.getInvolvedObject() != null && kind.equals(e.getInvolvedObject().getKind())
            && name.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason())
            && (e.getInvolvedObject().getNamespace() == null || namespace.equals(e.getInvolvedObject().getNamespace())))
        .toList();
  }
}

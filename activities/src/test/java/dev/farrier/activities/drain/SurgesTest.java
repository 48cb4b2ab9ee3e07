package dev.farrier.activities.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.MutableClock;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.kube.WorkloadSurges;
import dev.farrier.workflows.activities.SurgeOutcome;
import dev.farrier.workflows.activities.SurgeOutcome.Result;
import dev.farrier.workflows.activities.SurgeRequest;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * {@link Surges} over a scripted {@link WorkloadSurges}: the conflict loop, the refusals that must not be retried (a
 * 403, a malformed pod key), the Events (not repeated while a surge stays in flight, best effort, a heartbeat between
 * every two calls). The rules themselves are {@link SurgeRulesTest}'s; the real API server is {@link SurgesIT}'s.
 */
class SurgesTest {
  private static final String POD = "default/web-1";
  private static final String UID = "uid-web-1";

  /** Every call and every heartbeat in order: "beat", or the call's name. */
  private final List<String> calls = new ArrayList<>();
  private final List<String> events = new ArrayList<>();
  private Function<Integer, Boolean> restart = attempt -> true;
  private int restarts;
  private KubernetesClientException readFailure;
  private RuntimeException nodeFailure;
  private Deployment deployment = deployment(null);
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T18:00:00Z"));

  private final WorkloadSurges api = new WorkloadSurges() {
    @Override
    public Optional<Pod> readPod(String namespace, String name) {
      calls.add("readPod");
      clock.advance(Duration.ofSeconds(15));
      return Optional.of(new PodBuilder().withNewMetadata().withNamespace(namespace).withName(name).withUid(UID)
          .addNewOwnerReference().withKind("ReplicaSet").withName("web-7d").withController(true).endOwnerReference()
          .endMetadata().withNewSpec().endSpec().build());
    }

    @Override
    public Optional<ReplicaSet> readReplicaSet(String namespace, String name) {
      calls.add("readReplicaSet");
      if (readFailure != null) {
        throw readFailure;
      }
      return Optional.of(new ReplicaSetBuilder().withNewMetadata().withNamespace(namespace).withName(name)
          .addNewOwnerReference().withKind("Deployment").withName("web").withController(true).endOwnerReference()
          .endMetadata().build());
    }

    @Override
    public Optional<Deployment> readDeployment(String namespace, String name) {
      calls.add("readDeployment");
      return Optional.of(deployment);
    }

    @Override
    public Optional<PersistentVolumeClaim> readClaim(String namespace, String name) {
      calls.add("readClaim");
      return Optional.empty();
    }

    @Override
    public Optional<PersistentVolume> readVolume(String name) {
      calls.add("readVolume");
      return Optional.empty();
    }

    @Override
    public Optional<NodePool> readNodePool(String name) {
      calls.add("readNodePool");
      return Optional.empty();
    }

    @Override
    public Optional<Node> readNode(String name) {
      calls.add("readNode");
      if (nodeFailure != null) {
        throw nodeFailure;
      }
      return Optional.of(new NodeBuilder().withNewMetadata().withName(name).endMetadata().build());
    }

    @Override
    public boolean restartDeployment(Deployment read, Map<String, String> annotations, Map<String, String> templateAnnotations) {
      calls.add("restartDeployment");
      return restart.apply(++restarts);
    }

    @Override
    public void recordEvent(HasMetadata involved, String type, String reason, String message, Runnable beat) {
      calls.add("recordEvent");
      events.add(involved.getKind() + " " + reason);
    }
  };

  private final Surges surges = new Surges(api, Clock.fixed(Instant.parse("2026-11-30T18:00:00Z"), ZoneOffset.UTC),
      () -> calls.add("beat"));

  /** One replica, maxSurge 1 / maxUnavailable 0, settled, opted in on its template, marked with {@code surgedPod}. */
  private static Deployment deployment(String surgedPod) {
    var builder = new DeploymentBuilder().withNewMetadata().withNamespace("default").withName("web").withGeneration(2L)
        .withResourceVersion("7");
    if (surgedPod != null) {
      builder.addToAnnotations(SurgeRules.SURGED_POD_ANNOTATION, surgedPod);
    }
    return builder.endMetadata()
        .withNewSpec().withReplicas(1).withNewStrategy().withType("RollingUpdate").withNewRollingUpdate()
          .withMaxSurge(new IntOrString(1)).withMaxUnavailable(new IntOrString(0)).endRollingUpdate().endStrategy()
          .withNewTemplate().withNewMetadata().addToAnnotations(SurgeRules.ANNOTATION, "true").endMetadata().endTemplate()
        .endSpec()
        .withNewStatus().withObservedGeneration(surgedPod == null ? 2L : 1L).withReplicas(surgedPod == null ? 1 : 2)
          .withUpdatedReplicas(1).withAvailableReplicas(1).endStatus()
        .build();
  }

  private SurgeOutcome surge(SurgeOutcome previous) {
    return surges.surge(new SurgeRequest("c", "node-a", "nc-a", "default", POD, previous));
  }

  @Test
  void aDeploymentChangedUnderTheRestartIsReadAndDecidedAgainAtMostThreeTimes() {
    restart = attempt -> attempt == 3;
    assertEquals(Result.STARTED, surge(null).result());
    assertEquals(3, restarts);
    assertEquals(3, calls.stream().filter("readDeployment"::equals).count(), "each attempt reads the Deployment again");

    restarts = 0;
    restart = attempt -> false;
    SurgeOutcome gaveUp = surge(null);
    assertEquals(Result.REFUSED, gaveUp.result());
    assertEquals("the Deployment kept changing while Farrier restarted it; tried again next pass", gaveUp.reason());
    assertEquals(3, restarts);
  }

  @Test
  void aForbiddenReadIsARefusalNamedNotAFailureRetried() {
    readFailure = new KubernetesClientException(new StatusBuilder().withCode(403)
        .withMessage("replicasets.apps \"web-7d\" is forbidden: cannot get").build());
    SurgeOutcome refused = surge(null);
    assertEquals(Result.REFUSED, refused.result());
    assertEquals("Farrier is not allowed to read or restart the workload (HTTP 403): replicasets.apps \"web-7d\" is "
        + "forbidden: cannot get", refused.reason());
  }

  @Test
  void aPodWhoseReadsFailIsLeftOutOfThePassesAnswersNotFailingTheOthers() {
    readFailure = new KubernetesClientException(new StatusBuilder().withCode(500).withMessage("etcd timed out").build());
    List<SurgeOutcome> outcomes = surges.surge(List.of(new SurgeRequest("c", "node-a", "nc-a", "default", POD, null),
        new SurgeRequest("c", "node-a", "nc-a", "default", "no-slash", null)));
    assertEquals(List.of("no-slash"), outcomes.stream().map(SurgeOutcome::pod).toList(),
        "the failed pod keeps its last answer in the workflow; the next pod is still answered");
  }

  @Test
  void aMalformedPodKeyIsRefusedWithoutACall() {
    SurgeOutcome refused = surges.surge(new SurgeRequest("c", "node-a", "nc-a", "default", "no-slash", null));
    assertEquals(Result.REFUSED, refused.result());
    assertEquals("\"no-slash\" is not a pod's namespace/name", refused.reason());
    assertEquals(List.of(), calls);
  }

  @Test
  void aSurgeStillInFlightRecordsNoEventAgainAndAStartRecordsItOnTheDeploymentAndNode() {
    SurgeOutcome started = surge(null);
    assertEquals(List.of("Deployment SurgeStarted", "Node SurgeStarted"), events);

    events.clear();
    deployment = deployment(UID);
    SurgeOutcome surging = surge(started);
    assertEquals(Result.SURGING, surging.result());
    assertEquals(List.of(), events, "STARTED then SURGING is one surge: no second Event");
    surge(surging);
    assertEquals(List.of(), events);
  }

  @Test
  void aNodeThatCannotBeReadLosesOnlyItsEventNotTheSurge() {
    nodeFailure = new KubernetesClientException("node read timed out");
    SurgeOutcome started = surge(null);
    assertEquals(Result.STARTED, started.result());
    assertEquals(List.of("Deployment SurgeStarted"), events);
  }

  private static Pod held(String name, String replicaSet, String surge) {
    var builder = new PodBuilder().withNewMetadata().withNamespace("default").withName(name).withUid("uid-" + name)
        .addNewOwnerReference().withKind("ReplicaSet").withName(replicaSet).withController(true).endOwnerReference();
    if (surge != null) {
      builder.addToAnnotations(SurgeRules.ANNOTATION, surge);
    }
    return builder.endMetadata().withNewSpec().endSpec().build();
  }

  @Test
  void aPassReadsNoOwnerOfAPodThatNeitherItNorItsNodePoolOptedIn() {
    var candidates = surges.candidates("default");
    assertFalse(candidates.test(held("plain-1", "plain-7d", null)));
    assertFalse(candidates.test(held("plain-2", "plain-7d", null)));
    assertFalse(candidates.test(held("out-1", "out-7d", "false")));
    assertEquals(List.of("readNodePool"), calls.stream().filter(c -> !c.equals("beat")).toList(),
        "the NodePool read once a pass, no ReplicaSet or Deployment read");
  }

  @Test
  void aPassReadsTheOwnersOfAnOptedInReplicaSetOnce() {
    var candidates = surges.candidates("default");
    assertTrue(candidates.test(held("web-1", "web-7d", "true")));
    assertTrue(candidates.test(held("web-2", "web-7d", "true")));
    assertTrue(candidates.test(held("typo-1", "typo-7d", "yes")), "an invalid value is the surge's to refuse, named");
    assertEquals(List.of("readNodePool", "readReplicaSet", "readDeployment", "readReplicaSet", "readDeployment"),
        calls.stream().filter(c -> !c.equals("beat")).toList(), "one read of each ReplicaSet and its Deployment a pass");
  }

  @Test
  void aPassOutOfTimeStopsStartingSurgesAndAnswersForThePodsItGotTo() {
    var pass = new Surges(api, clock, () -> calls.add("beat"));
    List<SurgeRequest> three = List.of("default/web-1", "default/web-2", "default/web-3").stream()
        .map(pod -> new SurgeRequest("c", "node-a", "nc-a", "default", pod, null)).toList();

    List<SurgeOutcome> outcomes = pass.surge(three); // each pod's surge takes 15 s of the pass's 20

    assertEquals(List.of("default/web-1", "default/web-2"), outcomes.stream().map(SurgeOutcome::pod).toList());
  }

  @Test
  void everyTwoCallsHaveAHeartbeatBetweenThem() {
    surge(null);
    assertFalse(calls.isEmpty());
    for (int i = 1; i < calls.size(); i++) {
      assertTrue(calls.get(i - 1).equals("beat") || calls.get(i).equals("beat"), "no heartbeat between call " + (i - 1)
          + " and " + i + ": " + calls);
    }
  }
}

package dev.farrier.activities.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.views.PodViews;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import dev.farrier.activities.kube.FakePodEvictor;
import dev.farrier.workflows.activities.DrainGroup;
import dev.farrier.workflows.activities.DrainRequest;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.HeldPod;
import dev.farrier.workflows.activities.NodeActivities;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.temporal.activity.ActivityOptions;
import io.temporal.testing.TestActivityEnvironment;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The drain's pod invariants with a small fake evictor (the API-server version is {@code DrainStepIT}): mirror and
 * finished pods and pods that tolerate {@code karpenter.sh/disrupted:NoSchedule} are never evicted or deleted, not even
 * by a forced drain; do-not-disrupt pods and pods without a controller are held in a voluntary drain; a PDB's refusal is
 * a held pod; only a forced drain deletes past PDBs; a voluntary pass works on one drain group ({@link DrainOrder}) and
 * leaves the later ones.
 */
class DrainInvariantsTest {
  private static final String NODE = "node-a";
  /** This fake's pods never leave: a pass reports at once instead of waiting for them ({@code DrainPassSettlesTest}). */
  private static final Duration SETTLE_WITHIN = Duration.ZERO;
  private final TestActivityEnvironment env = TestActivityEnvironment.newInstance();

  @AfterEach
  void close() {
    env.close();
  }

  private final List<Pod> pods = List.of(
      pod("web-1", "ReplicaSet", Map.of(), "Running"),
      pod("guarded", "ReplicaSet", Map.of(), "Running"),
      pod("agent", "DaemonSet", Map.of(), "Running"),
      pod("static", null, Map.of(PodViews.MIRROR_ANNOTATION, "x"), "Running"),
      pod("pinned", "ReplicaSet", Map.of("karpenter.sh/do-not-disrupt", "true"), "Running"),
      pod("loner", null, Map.of(), "Running"),
      pod("done", "Job", Map.of(), "Succeeded"),
      pod("elsewhere", "ReplicaSet", Map.of(), "Running", "node-b"));

  @Test
  void aVoluntaryPassEvictsOnlyWhatMayGoAndHoldsTheRestWithTheirCause() {
    FakePodEvictor evictor = new FakePodEvictor(pods, Set.of("guarded"));

    DrainStatus status = drain(evictor, new DrainRequest("c", NODE, "nc", false, true));

    assertEquals(List.of("web-1"), evictor.evicted);
    assertEquals(List.of(), evictor.deleted);
    assertEquals(Map.of("ns/guarded", HeldPod.Cause.PDB, "ns/pinned", HeldPod.Cause.DO_NOT_DISRUPT, "ns/loner", HeldPod.Cause.NO_CONTROLLER),
        held(status));
    assertEquals(Set.of("ns/web-1", "ns/guarded", "ns/pinned", "ns/loner", "ns/agent"), Set.copyOf(status.remaining()),
        "mirror, finished and tolerating pods are not waited for");
    assertEquals(DrainGroup.NON_CRITICAL, status.group());
    assertEquals(List.of("ns/agent"), status.deferred(), "the DaemonSet pod waits for the non-critical pods");
  }

  @Test
  void theNextGroupTakesItsTurnOnceTheOnesBeforeItAreGone() {
    Pod dns = new PodBuilder(pod("dns", "ReplicaSet", Map.of(), "Running")).editSpec()
        .withPriorityClassName("system-cluster-critical").endSpec().build();
    FakePodEvictor evictor = new FakePodEvictor(List.of(pod("agent", "DaemonSet", Map.of(), "Running"), dns), Set.of());

    DrainStatus status = drain(evictor, new DrainRequest("c", NODE, "nc", false, true));

    assertEquals(List.of("agent"), evictor.evicted);
    assertEquals(DrainGroup.NON_CRITICAL_DAEMONSET, status.group());
    assertEquals(List.of("ns/dns"), status.deferred());
  }

  @Test
  void anUrgentPassEvictsPodsWithoutAControllerButStillHoldsDoNotDisrupt() {
    FakePodEvictor evictor = new FakePodEvictor(pods, Set.of());

    DrainStatus status = drain(evictor, new DrainRequest("c", NODE, "nc", false, false));

    assertEquals(Set.of("web-1", "guarded", "loner"), Set.copyOf(evictor.evicted));
    assertEquals(Map.of("ns/pinned", HeldPod.Cause.DO_NOT_DISRUPT), held(status));
  }

  @Test
  void aForcedPassDeletesEveryGroupAtOncePastPdbsAndDoNotDisruptButNeverMirrorFinishedOrToleratingPods() {
    Pod stuck = new PodBuilder(pod("stuck", "ReplicaSet", Map.of(), "Running"))
        .editMetadata().withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata().build();
    List<Pod> withStuck = new java.util.ArrayList<>(pods);
    withStuck.add(stuck);
    withStuck.add(new PodBuilder(pod("tolerant", "DaemonSet", Map.of(), "Running")).editSpec().addNewToleration()
        .withOperator("Exists").endToleration().endSpec().build());
    FakePodEvictor evictor = new FakePodEvictor(withStuck, Set.of("guarded"));

    DrainStatus status = drain(evictor, new DrainRequest("c", NODE, "nc", true, true));

    assertEquals(List.of(), evictor.evicted, "a forced drain deletes; it does not ask the Eviction API");
    assertEquals(Set.of("web-1", "guarded", "pinned", "loner", "stuck@0", "agent"), Set.copyOf(evictor.deleted));
    assertEquals(List.of(), status.held());
    assertEquals(List.of(), status.deferred());
  }

  @Test
  void podsOfAnInstanceThatIsGoneAreDeletedAtOnceButNeverDaemonSetMirrorOrFinishedOnes() {
    FakePodEvictor evictor = new FakePodEvictor(pods, Set.of("guarded"));

    DrainStatus status = drain(evictor, new DrainRequest("c", NODE, "nc", false, true, true));

    assertEquals(List.of(), evictor.evicted);
    assertEquals(Set.of("web-1@0", "guarded@0", "pinned@0", "loner@0"), Set.copyOf(evictor.deleted));
    assertEquals(List.of(), status.held());
  }

  @Test
  void anOwnerThatIsNotTheControllerDoesNotMakeAPodSafeToEvict() {
    Pod adopted = new PodBuilder(pod("adopted", null, Map.of(), "Running"))
        .editMetadata().addNewOwnerReference().withKind("ReplicaSet").withName("rs").withController(false).endOwnerReference()
        .endMetadata().build();
    FakePodEvictor evictor = new FakePodEvictor(List.of(adopted), Set.of());

    DrainStatus status = drain(evictor, new DrainRequest("c", NODE, "nc", false, true));

    assertEquals(List.of(), evictor.evicted);
    assertEquals(Map.of("ns/adopted", HeldPod.Cause.NO_CONTROLLER), held(status));
  }

  @Test
  void aTerminatingPodIsWaitedForInAVoluntaryPass() {
    Pod leaving = new PodBuilder(pod("leaving", "ReplicaSet", Map.of(), "Running"))
        .editMetadata().withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata().build();
    FakePodEvictor evictor = new FakePodEvictor(List.of(leaving), Set.of());

    DrainStatus status = drain(evictor, new DrainRequest("c", NODE, "nc", false, true));

    assertEquals(List.of(), evictor.evicted);
    assertEquals(List.of("ns/leaving"), status.remaining());
  }

  private DrainStatus drain(FakePodEvictor evictor, DrainRequest request) {
    env.registerActivitiesImplementations(new NodeActivitiesImpl(null, evictor, null, Clock.systemUTC(), null, new SimpleMeterRegistry(),
        SETTLE_WITHIN));
    NodeActivities activities = env.newActivityStub(NodeActivities.class,
        ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofMinutes(1)).build());
    return activities.drainStep(request);
  }

  private static Map<String, HeldPod.Cause> held(DrainStatus status) {
    Map<String, HeldPod.Cause> byPod = new java.util.HashMap<>();
    status.held().forEach(h -> byPod.put(h.pod(), h.cause()));
    return byPod;
  }

  private static Pod pod(String name, String controllerKind, Map<String, String> annotations, String phase) {
    return pod(name, controllerKind, annotations, phase, NODE);
  }

  private static Pod pod(String name, String controllerKind, Map<String, String> annotations, String phase, String node) {
    var builder = new PodBuilder().withNewMetadata().withNamespace("ns").withName(name).withUid(name + "-uid")
        .addToAnnotations(annotations).endMetadata()
        .withNewSpec().withNodeName(node).endSpec()
        .withNewStatus().withPhase(phase).endStatus();
    if (controllerKind != null) {
      builder.editMetadata().addNewOwnerReference().withKind(controllerKind).withName("owner").withController(true).endOwnerReference()
          .endMetadata();
    }
    return builder.build();
  }
}

package dev.farrier.activities.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.kube.ClusterEvent;
import dev.farrier.activities.kube.FakePodEvictor;
import dev.farrier.activities.kube.RecordingEventSink;
import dev.farrier.workflows.activities.DrainRequest;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.NodeActivities;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.temporal.activity.ActivityOptions;
import io.temporal.testing.TestActivityEnvironment;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A drain pass does not report pods as remaining that are already leaving within a few seconds: it waits for the pods
 * it evicted to be gone, up to its bound; a pod slower than that is still reported. It records an Evicted Event per
 * pod it evicted (or released) when the request asks, and none otherwise.
 */
class DrainPassSettlesTest {
  private static final String NODE = "node-a";
  /** Short, so the slow pod's case costs a moment; the worker's bound is {@link LeavingPods#WITHIN}. */
  private static final Duration SETTLE_WITHIN = Duration.ofSeconds(1);

  private final RecordingEventSink sink = new RecordingEventSink();

  @Test
  void podsThatLeaveWithinTheBoundAreNotReportedAsRemaining() {
    FakePodEvictor evictor = new FakePodEvictor(List.of(pod("web-1"), pod("web-2")), Set.of()).leavingAfter(1);

    DrainStatus status = drain(evictor, new DrainRequest("c", NODE, "nc", false, true));

    assertEquals(List.of("ns/web-1", "ns/web-2"), status.evicted());
    assertEquals(List.of(), status.remaining(), "the evicted pods left a moment later, within the pass");
  }

  @Test
  void aPodSlowerThanTheBoundIsStillReportedForTheWorkflowToWaitFor() {
    Pod terminatingSlowly = new PodBuilder(pod("slow")).editMetadata().withDeletionTimestamp("2026-01-01T00:00:00Z")
        .endMetadata().build();
    FakePodEvictor evictor = new FakePodEvictor(List.of(pod("web-1"), terminatingSlowly), Set.of()).leavingAfter(1);

    DrainStatus status = drain(evictor, new DrainRequest("c", NODE, "nc", false, true));

    assertEquals(List.of("ns/web-1"), status.evicted());
    assertEquals(List.of("ns/slow"), status.remaining(), "still terminating when the bound passed");
  }

  @Test
  void aPdbHeldPodIsReportedAtOnceWithoutWaitingForIt() {
    FakePodEvictor evictor = new FakePodEvictor(List.of(pod("guarded")), Set.of("guarded"));

    DrainStatus status = drain(evictor, new DrainRequest("c", NODE, "nc", false, true));

    assertEquals(List.of("ns/guarded"), status.remaining());
    assertEquals(1, status.held().size());
  }

  @Test
  void evictedAndReleasedPodsAreRecordedAsEventsWhenTheRequestAsks() {
    drain(new FakePodEvictor(List.of(pod("web-1")), Set.of()), new DrainRequest("c", NODE, "nc", false, true, false, true));
    drain(new FakePodEvictor(List.of(pod("web-2")), Set.of()), new DrainRequest("c", NODE, "nc", false, true, true, true));
    drain(new FakePodEvictor(List.of(pod("web-3")), Set.of()), new DrainRequest("c", NODE, "nc", false, true, false, false));

    assertEquals(List.of(
        new ClusterEvent("Node", NODE, "Normal", "Evicted", "evicted ns/web-1"),
        new ClusterEvent("Node", NODE, "Normal", "Evicted", "released ns/web-2")), sink.recorded,
        "one per pod, none when the workflow records them itself");
  }

  private DrainStatus drain(FakePodEvictor evictor, DrainRequest request) {
    var env = TestActivityEnvironment.newInstance();
    try {
      env.registerActivitiesImplementations(new NodeActivitiesImpl(null, evictor, sink, Clock.systemUTC(), null,
          new SimpleMeterRegistry(), SETTLE_WITHIN));
      NodeActivities activities = env.newActivityStub(NodeActivities.class, ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofMinutes(1)).setHeartbeatTimeout(Duration.ofSeconds(10)).build());
      return activities.drainStep(request);
    } finally {
      env.close();
    }
  }

  private static Pod pod(String name) {
    return new PodBuilder().withNewMetadata().withNamespace("ns").withName(name).withUid(name + "-uid")
        .addNewOwnerReference().withKind("ReplicaSet").withName("owner").withController(true).endOwnerReference().endMetadata()
        .withNewSpec().withNodeName(NODE).endSpec()
        .withNewStatus().withPhase("Running").endStatus().build();
  }
}

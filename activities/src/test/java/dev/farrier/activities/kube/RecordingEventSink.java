package dev.farrier.activities.kube;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** An {@link EventSink} that keeps the Events recorded about cluster objects, for unit tests; pod Events fail the test. */
public final class RecordingEventSink implements EventSink {
  public final List<ClusterEvent> recorded = new ArrayList<>();

  @Override
  public void recordEvent(ClusterEvent event) {
    recorded.add(event);
  }

  @Override
  public boolean recordPodEvent(PodEvent event, Duration window) {
    throw new AssertionError("no pod Events expected: " + event);
  }

  @Override
  public void recordObjectEvent(io.fabric8.kubernetes.api.model.HasMetadata involved, String type, String reason, String message) {
    throw new AssertionError("no workload Events expected: " + involved.getKind() + " " + reason);
  }
}

package dev.farrier.activities.events;

import dev.farrier.activities.kube.ClusterEvent;
import dev.farrier.activities.kube.EventSink;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.activities.metrics.NodeClaimMetrics;
import dev.farrier.workflows.EventReasons;
import dev.farrier.workflows.activities.EventRequest;
import dev.farrier.model.WellKnown;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records the Kubernetes Events workflows ask for: those a step records once it has done its work, and those that
 * belong to no step. Best effort: an Event that cannot be recorded is logged, never fails the step, and the others are
 * still recorded. The one place a replacement's start is counted as a disruption (from its DisruptionStarted Event on
 * the NodeClaim, which a replacement records once, with its first step or on its own).
 */
public final class StepEvents {
  private static final Logger log = LoggerFactory.getLogger(StepEvents.class);

  private final EventSink sink;
  private final NodeClaimStore claims;
  private final NodeClaimMetrics metrics;

  public StepEvents(EventSink sink, NodeClaimStore claims, NodeClaimMetrics metrics) {
    this.sink = sink;
    this.claims = claims;
    this.metrics = metrics;
  }

  public void record(List<EventRequest> events) {
    events.forEach(this::record);
  }

  public void record(EventRequest request) {
    try {
      sink.recordEvent(new ClusterEvent(request.kind(), request.name(), request.type(), request.reason(), request.message()));
    } catch (RuntimeException e) {
      log.atWarn().setMessage("event not recorded").addKeyValue("kind", request.kind())
          .addKeyValue("name", request.name()).addKeyValue("reason", request.reason())
          .addKeyValue("error", e.toString()).log();
    }
    countDisruption(request);
  }

  /**
   * A replacement records {@link EventReasons#DISRUPTION_STARTED} once, when it starts, on the Node and on the
   * NodeClaim: the NodeClaim's is counted as a disruption, labelled from the claim (a claim already gone has no labels).
   */
  private void countDisruption(EventRequest request) {
    if (!EventReasons.DISRUPTION_STARTED.equals(request.reason()) || !EventReasons.KIND_NODE_CLAIM.equals(request.kind())) {
      return;
    }
    EventReasons.disruptionReason(request.message()).ifPresent(reason -> {
      Map<String, String> labels;
      try {
        labels = claims.getNodeClaim(request.name()).map(c -> c.getMetadata().getLabels()).orElse(null);
      } catch (RuntimeException e) {
        // A metric never fails the activity; the disruption is counted without its NodePool.
        log.warn("nodeclaim not read for the disruption metric nodeclaim={}: {}", request.name(), e.toString());
        labels = null;
      }
      Map<String, String> known = labels == null ? Map.of() : labels;
      metrics.disrupted(reason, known.get(WellKnown.NODEPOOL_LABEL), known.get(WellKnown.CAPACITY_TYPE_LABEL));
    });
  }
}

package dev.farrier.activities.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;

/** Records Kubernetes Events. The contracts of {@link Cluster} apply. */
public interface EventSink {
  /**
   * Records a core/v1 Event (reportingComponent {@code farrier}) about a Node or NodeClaim. Idempotent in count of
   * objects: the Event's name is derived from the object, reason and message, so a retry (or a repeat) bumps the
   * existing Event's count instead of creating another.
   */
  void recordEvent(ClusterEvent event);

  /**
   * Records an Event about a Pod in its namespace, unless the same Event (pod UID, reason, message) was counted
   * within {@code window}: the stored Event is the dedupe record (its name derives from that triple), so a reason
   * repeated every planning round is written at most once per window, across worker restarts too. Returns whether
   * it wrote.
   */
  boolean recordPodEvent(PodEvent event, Duration window);

  /**
   * Records an Event about {@code involved} (its apiVersion, kind, namespace, name and UID are read; a Deployment, a
   * StatefulSet): in its namespace, or {@code default} for a cluster-scoped one. Named from the object, reason and
   * message as {@link #recordEvent}'s, so a repeat bumps the stored Event's count.
   */
  void recordObjectEvent(HasMetadata involved, String type, String reason, String message);
}

package dev.farrier.activities.kube;

import dev.farrier.activities.crd.NodePool;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import java.util.Map;
import java.util.Optional;

/**
 * What a surge of a held pod reads and writes: the pod's owners, its volumes, its NodePool, the Deployment's restart
 * and the Events about it. Every call is one live request to the API server bounded to a few seconds and never
 * retried inside (as {@link PodEvictor}'s), so the activity heartbeats between calls. The contracts of {@link Cluster}
 * apply.
 */
public interface WorkloadSurges {
  Optional<Pod> readPod(String namespace, String name);

  Optional<ReplicaSet> readReplicaSet(String namespace, String name);

  Optional<Deployment> readDeployment(String namespace, String name);

  Optional<PersistentVolumeClaim> readClaim(String namespace, String name);

  Optional<PersistentVolume> readVolume(String name);

  Optional<NodePool> readNodePool(String name);

  Optional<Node> readNode(String name);

  /**
   * Merges {@code annotations} into the Deployment's and {@code templateAnnotations} into its pod template's, with
   * the read resourceVersion as a precondition, so a Deployment changed since it was read is never restarted on stale
   * facts. Returns false on that conflict (read again and decide again); throws {@link ObjectNotFoundException}.
   */
  boolean restartDeployment(Deployment read, Map<String, String> annotations, Map<String, String> templateAnnotations);

  /**
   * Records an Event about {@code involved} (in its namespace; a cluster-scoped object's in {@code default}). The
   * Event's name derives from the object, reason and message, so a repeat bumps its count. Up to three calls (create;
   * on a conflict read and patch the count), {@code beat} run between them.
   */
  void recordEvent(HasMetadata involved, String type, String reason, String message, Runnable beat);
}

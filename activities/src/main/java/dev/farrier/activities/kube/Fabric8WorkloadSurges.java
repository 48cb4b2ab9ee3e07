package dev.farrier.activities.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * The live reads and the restart behind {@link WorkloadSurges} (Fabric8Cluster serves its NodePool read from its
 * lists), on the drain's bounded client ({@link PodEvictions#bounded()}): every call answers within
 * {@link PodEvictions#CALL_TIMEOUT} and is never retried inside, so a surge heartbeats between calls.
 */
final class Fabric8WorkloadSurges {
  private final KubernetesClient client;
  private final EventRecorder events;

  Fabric8WorkloadSurges(KubernetesClient bounded, Clock clock, String instance) {
    this.client = bounded;
    this.events = new EventRecorder(bounded, CachedObjects.NONE, clock, instance);
  }

  Optional<Pod> readPod(String namespace, String name) {
    return Optional.ofNullable(client.pods().inNamespace(namespace).withName(name).get());
  }

  Optional<ReplicaSet> readReplicaSet(String namespace, String name) {
    return Optional.ofNullable(client.apps().replicaSets().inNamespace(namespace).withName(name).get());
  }

  Optional<Deployment> readDeployment(String namespace, String name) {
    return Optional.ofNullable(client.apps().deployments().inNamespace(namespace).withName(name).get());
  }

  Optional<PersistentVolumeClaim> readClaim(String namespace, String name) {
    return Optional.ofNullable(client.persistentVolumeClaims().inNamespace(namespace).withName(name).get());
  }

  Optional<PersistentVolume> readVolume(String name) {
    return Optional.ofNullable(client.persistentVolumes().withName(name).get());
  }

  Optional<Node> readNode(String name) {
    return Optional.ofNullable(client.nodes().withName(name).get());
  }

  boolean restartDeployment(Deployment read, Map<String, String> annotations, Map<String, String> templateAnnotations) {
    var body = Map.of(
        "metadata", Map.of("resourceVersion", read.getMetadata().getResourceVersion(), "annotations", annotations),
        "spec", Map.of("template", Map.of("metadata", Map.of("annotations", templateAnnotations))));
    try {
      client.apps().deployments().resource(read)
          .patch(PatchContext.of(PatchType.JSON_MERGE), client.getKubernetesSerialization().asJson(body));
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
        return false;
      }
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        throw new ObjectNotFoundException("Deployment", read.getMetadata().getNamespace() + "/" + read.getMetadata().getName());
      }
      throw e;
    }
  }

  void recordEvent(HasMetadata involved, String type, String reason, String message, Runnable beat) {
    events.recordObjectEvent(involved, type, reason, message, beat);
  }
}

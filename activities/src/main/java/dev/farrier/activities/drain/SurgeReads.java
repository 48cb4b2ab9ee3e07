package dev.farrier.activities.drain;

import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.kube.WorkloadSurges;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads what {@link SurgeRules} decides on: the Deployment that owns a pod through its ReplicaSet, the
 * {@code farrier.dev/surge} annotations, the Deployment's strategy and rollout, the pod's volumes. Each read is one
 * bounded call ({@link WorkloadSurges}); {@code beat} runs before each so the activity heartbeats between them.
 */
final class SurgeReads {
  private final WorkloadSurges api;
  private final Runnable beat;

  SurgeReads(WorkloadSurges api, Runnable beat) {
    this.api = api;
    this.beat = beat;
  }

  /** The Deployment that controls the pod's controlling ReplicaSet, if one does. */
  Optional<Deployment> deploymentOf(Pod pod) {
    String namespace = pod.getMetadata().getNamespace();
    Optional<String> replicaSet = controller(pod, "ReplicaSet");
    if (replicaSet.isEmpty()) {
      return Optional.empty();
    }
    beat.run();
    Optional<String> deployment = api.readReplicaSet(namespace, replicaSet.get()).flatMap(rs -> controller(rs, "Deployment"));
    if (deployment.isEmpty()) {
      return Optional.empty();
    }
    beat.run();
    return api.readDeployment(namespace, deployment.get());
  }

  /** The NodePool's {@code farrier.dev/surge} annotation, null when absent (or no NodePool is named or found). */
  String nodePoolAnnotation(String nodePool) {
    if (nodePool == null) {
      return null;
    }
    beat.run();
    return api.readNodePool(nodePool).map(NodePool::getMetadata).map(m -> annotation(m.getAnnotations())).orElse(null);
  }

  static SurgeFacts.OptIn optIn(Deployment deployment, String nodePoolAnnotation) {
    var template = deployment.getSpec().getTemplate().getMetadata();
    return new SurgeFacts.OptIn(template == null ? null : annotation(template.getAnnotations()), nodePoolAnnotation);
  }

  /** Everything the rules need about {@code pod}, owned by {@code deployment}. */
  SurgeFacts facts(Pod pod, Deployment deployment, String nodePoolAnnotation) {
    var spec = deployment.getSpec();
    var strategy = spec.getStrategy();
    var rolling = strategy == null ? null : strategy.getRollingUpdate();
    var annotations = deployment.getMetadata().getAnnotations();
    String managedBy = deployment.getMetadata().getOwnerReferences() == null ? null
        : deployment.getMetadata().getOwnerReferences().stream().filter(o -> Boolean.TRUE.equals(o.getController()))
            .map(o -> o.getKind() + " " + o.getName()).findFirst().orElse(null);
    return new SurgeFacts(pod.getMetadata().getUid(), pod.getMetadata().getDeletionTimestamp() != null, key(deployment),
        managedBy, optIn(deployment, nodePoolAnnotation),
        Boolean.TRUE.equals(spec.getPaused()), strategy == null ? null : strategy.getType(),
        rolling == null ? null : rolling.getMaxSurge(),
        rolling == null ? null : rolling.getMaxUnavailable(), spec.getReplicas(), rollout(deployment),
        annotations == null ? null : annotations.get(SurgeRules.SURGED_POD_ANNOTATION), volumes(pod));
  }

  private static SurgeFacts.Rollout rollout(Deployment deployment) {
    DeploymentStatus status = Objects.requireNonNullElseGet(deployment.getStatus(), DeploymentStatus::new);
    boolean deadlineExceeded = status.getConditions() != null && status.getConditions().stream()
        .anyMatch(SurgeReads::progressDeadlineExceeded);
    Long generation = deployment.getMetadata().getGeneration();
    return new SurgeFacts.Rollout(generation == null ? 0 : generation,
        status.getObservedGeneration() == null ? 0 : status.getObservedGeneration(), orZero(status.getReplicas()),
        orZero(status.getUpdatedReplicas()), orZero(status.getAvailableReplicas()), deadlineExceeded,
        deployment.getSpec().getProgressDeadlineSeconds());
  }

  private static boolean progressDeadlineExceeded(DeploymentCondition condition) {
    return "Progressing".equals(condition.getType()) && "False".equals(condition.getStatus())
        && "ProgressDeadlineExceeded".equals(condition.getReason());
  }

  private List<SurgeFacts.Volume> volumes(Pod pod) {
    List<SurgeFacts.Volume> volumes = new ArrayList<>();
    List<Volume> declared = pod.getSpec().getVolumes() == null ? List.of() : pod.getSpec().getVolumes();
    for (Volume volume : declared) {
      if (volume.getPersistentVolumeClaim() == null) {
        continue;
      }
      String name = volume.getPersistentVolumeClaim().getClaimName();
      beat.run();
      Optional<PersistentVolumeClaim> claim = api.readClaim(pod.getMetadata().getNamespace(), name);
      List<String> modes = claim.map(c -> c.getStatus() != null && c.getStatus().getAccessModes() != null
          && !c.getStatus().getAccessModes().isEmpty() ? c.getStatus().getAccessModes() : c.getSpec().getAccessModes())
          .orElse(List.of());
      String volumeName = claim.map(c -> c.getSpec().getVolumeName()).orElse(null);
      String pinnedTo = null;
      if (volumeName != null && !volumeName.isEmpty()) {
        beat.run();
        pinnedTo = api.readVolume(volumeName).map(v -> v.getSpec().getNodeAffinity()).map(SurgeReads::describe).orElse(null);
      }
      volumes.add(new SurgeFacts.Volume(name, modes, pinnedTo));
    }
    return volumes;
  }

  /** A volume's required node affinity in words, e.g. "topology.kubernetes.io/zone In [us-west-2a]", or null. */
  private static String describe(io.fabric8.kubernetes.api.model.VolumeNodeAffinity affinity) {
    if (affinity.getRequired() == null || affinity.getRequired().getNodeSelectorTerms() == null) {
      return null;
    }
    List<String> terms = new ArrayList<>();
    affinity.getRequired().getNodeSelectorTerms().forEach(term -> {
      List<NodeSelectorRequirement> requirements = term.getMatchExpressions() == null ? List.of() : term.getMatchExpressions();
      requirements.forEach(r -> terms.add(r.getKey() + " " + r.getOperator() + " " + r.getValues()));
    });
    return terms.isEmpty() ? null : String.join(" or ", terms);
  }

  static Optional<String> controller(HasMetadata object, String kind) {
    List<OwnerReference> owners = object.getMetadata().getOwnerReferences();
    return owners == null ? Optional.empty() : owners.stream()
        .filter(o -> Boolean.TRUE.equals(o.getController()) && kind.equals(o.getKind()))
        .map(OwnerReference::getName).findFirst();
  }

  static String annotation(Map<String, String> annotations) {
    return annotations == null ? null : annotations.get(SurgeRules.ANNOTATION);
  }

  private static int orZero(Integer value) {
    return value == null ? 0 : value;
  }

  static String key(HasMetadata object) {
    return object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
  }
}

package dev.farrier.activities.drain;

import io.fabric8.kubernetes.api.model.IntOrString;
import java.util.List;

/**
 * What {@link SurgeRules} needs to know about one held pod and its Deployment, read from the API server
 * ({@link SurgeReads}); plain values, so the rules are tested without a cluster.
 *
 * @param podUid               the held pod's UID
 * @param podLeaving           the held pod is terminating already (its deletionTimestamp is set)
 * @param deployment           namespace/name of the Deployment that owns the pod through its ReplicaSet
 * @param managedBy            the Deployment's own controller ({@code Kind name} of its controller ownerReference: an
 *                             operator, Knative...), which may write its template back over a restart; null when none
 * @param optIn                the workload's and its NodePool's {@code farrier.dev/surge} annotations
 * @param paused               {@code spec.paused}
 * @param strategy             {@code spec.strategy.type} (null: the default, RollingUpdate)
 * @param maxSurge             {@code spec.strategy.rollingUpdate.maxSurge} (an integer or a percentage; null: 25%)
 * @param maxUnavailable       {@code spec.strategy.rollingUpdate.maxUnavailable} as written (null: 25%)
 * @param replicas             {@code spec.replicas} (null: 1)
 * @param rollout              the Deployment's status as its controller last wrote it
 * @param surgedPod            the pod UID Farrier's last surge of this Deployment was for ({@code farrier.dev/surged-pod}), or null
 * @param volumes              the PersistentVolumeClaims the pod mounts
 */
record SurgeFacts(String podUid, boolean podLeaving, String deployment, String managedBy, OptIn optIn, boolean paused, String strategy, IntOrString maxSurge,
    IntOrString maxUnavailable, Integer replicas, Rollout rollout, String surgedPod, List<Volume> volumes) {
  SurgeFacts {
    volumes = volumes == null ? List.of() : List.copyOf(volumes);
  }

  /**
   * The {@code farrier.dev/surge} annotations that apply to the pod, each null when absent. The workload's is on its
   * Deployment's pod template, so its pods carry it too: a drain pass reads owners only for pods that carry
   * {@code "true"} (or a value to refuse) or whose NodePool says {@code "true"}.
   *
   * @param template    on the Deployment's pod template
   * @param nodePool    on the node's NodePool
   */
  record OptIn(String template, String nodePool) {}

  /**
   * @param generation           {@code metadata.generation}
   * @param observedGeneration   {@code status.observedGeneration}
   * @param replicas             {@code status.replicas}: pods of every ReplicaSet of the Deployment
   * @param updatedReplicas      {@code status.updatedReplicas}: pods of the current template
   * @param availableReplicas    {@code status.availableReplicas}
   * @param progressDeadlineExceeded its Progressing condition says {@code ProgressDeadlineExceeded}
   * @param progressDeadlineSeconds  {@code spec.progressDeadlineSeconds} (null: 600)
   */
  record Rollout(long generation, long observedGeneration, int replicas, int updatedReplicas, int availableReplicas,
      boolean progressDeadlineExceeded, Integer progressDeadlineSeconds) {}

  /**
   * A PersistentVolumeClaim the pod mounts.
   *
   * @param claim         its name
   * @param accessModes   the claim's (its volume's once bound) access modes
   * @param pinnedTo      its volume's node affinity in words (the zone or node it cannot leave), or null when none
   */
  record Volume(String claim, List<String> accessModes, String pinnedTo) {
    Volume {
      accessModes = accessModes == null ? List.of() : List.copyOf(accessModes);
    }
  }
}

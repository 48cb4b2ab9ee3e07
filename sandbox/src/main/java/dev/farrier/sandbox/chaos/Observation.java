package dev.farrier.sandbox.chaos;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the monitor saw at one instant, read from outside the worker: every instance the cloud reports, the API
 * server's NodeClaims, pods and PodDisruptionBudgets, the pod changes the watch delivered since the previous
 * observation (in order), and the replacements and rollouts Temporal lists as running; now and then also the
 * replacements Temporal lists as completed.
 *
 * @param pendingPods {@code namespace/name} of every pod in phase Pending
 * @param runningWorkflows the ids of the running replacements and rollouts of the cluster
 * @param pods every pod as the watch knows it at {@code at}
 * @param podChanges every change of a pod the watch delivered since the previous observation, oldest first, each with
 *     the pod's state right after it (a deleted pod with its last known state)
 * @param replacements the running replacements, with their search attributes
 * @param completedReplacements replacements that completed with phase Done, listed by this observation's query of
 *     closed executions (empty when this observation did not query them; a later query may list one again)
 */
public record Observation(Instant at, List<CloudInstance> instances, List<Claim> claims, List<String> pendingPods,
    List<String> runningWorkflows, List<PodState> pods, List<PodChange> podChanges, List<Pdb> pdbs,
    List<Replacement> replacements, List<Replacement> completedReplacements) {
  public Observation {
    instances = List.copyOf(instances);
    claims = List.copyOf(claims);
    pendingPods = List.copyOf(pendingPods);
    runningWorkflows = List.copyOf(runningWorkflows);
    pods = List.copyOf(pods);
    podChanges = List.copyOf(podChanges);
    pdbs = List.copyOf(pdbs);
    replacements = List.copyOf(replacements);
    completedReplacements = List.copyOf(completedReplacements);
  }

  /** An observation of the cloud, the NodeClaims and what has not settled only: no pods, PDBs or replacements. */
  public Observation(Instant at, List<CloudInstance> instances, List<Claim> claims, List<String> pendingPods,
      List<String> runningWorkflows) {
    this(at, instances, claims, pendingPods, runningWorkflows, List.of(), List.of(), List.of(), List.of(), List.of());
  }

  /** An instance as the cloud reports it: its id, EC2 state name and tags. */
  public record CloudInstance(String id, String state, Map<String, String> tags) {
    public CloudInstance {
      tags = Map.copyOf(tags);
    }

    /** Pending or running: an instance that costs money and may become a node. */
    public boolean live() {
      return state.equals("pending") || state.equals("running");
    }
  }

  /**
   * A NodeClaim.
   *
   * @param nodePool its {@code karpenter.sh/nodepool} label, or null
   * @param nodeName its {@code status.nodeName}, or null before its node registers
   * @param imageId its {@code status.imageID}, or null before launch
   * @param registered whether its condition {@code Registered} is True
   */
  public record Claim(String name, boolean deleting, String nodePool, String nodeName, String imageId, boolean registered) {
    /** A claim known by name and deletion only. */
    public Claim(String name, boolean deleting) {
      this(name, deleting, null, null, null, false);
    }
  }

  /**
   * A pod as the API server shows it.
   *
   * @param node {@code spec.nodeName}, or null while unscheduled
   * @param terminating whether it has a {@code deletionTimestamp}
   * @param ownerKind the kind of its controller, or null
   * @param doNotDisrupt whether it is annotated {@code karpenter.sh/do-not-disrupt: "true"}
   * @param toleratesDisrupted whether it tolerates {@code karpenter.sh/disrupted:NoSchedule} (the drain leaves it)
   * @param disruptionTarget the reason of its {@code DisruptionTarget} condition when that is True
   *     ({@code EvictionByEvictionAPI}, {@code DeletionByPodGC}, {@code DeletionByTaintManager}, ...), else null
   */
  public record PodState(String namespace, String name, String node, String phase, boolean ready, boolean terminating,
      String ownerKind, Map<String, String> labels, boolean doNotDisrupt, boolean toleratesDisrupted, String disruptionTarget) {
    /** The Kubernetes API server's reason for an eviction through the Eviction API. */
    public static final String EVICTION = "EvictionByEvictionAPI";

    public PodState {
      labels = Map.copyOf(labels);
    }

    public String key() {
      return namespace + "/" + name;
    }

    /** Counted by a PDB as healthy: Ready, not terminating, and not marked for disruption. */
    public boolean healthy() {
      return ready && !terminating && disruptionTarget == null;
    }

    /** On its way out: marked for disruption or terminating. */
    public boolean disrupted() {
      return terminating || disruptionTarget != null;
    }
  }

  /**
   * A pod's state right after one change the watch delivered; {@code deleted} when the pod is gone (its last state);
   * {@code finalStateUnknown} when the watch learnt of the deletion only from a re-list (it was cut off, by an API
   * server restart say): how and in what order the pod left is not known.
   */
  public record PodChange(PodState pod, boolean deleted, boolean finalStateUnknown) {
    /** A change the watch saw as it happened. */
    public PodChange(PodState pod, boolean deleted) {
      this(pod, deleted, false);
    }
  }

  /**
   * A PodDisruptionBudget, its percentages resolved against {@code expectedPods} as Kubernetes does (rounded up).
   *
   * @param matchLabels its selector's {@code matchLabels} (empty: every pod of the namespace)
   * @param minAvailable its {@code minAvailable}, or null
   * @param maxUnavailable its {@code maxUnavailable}, or null
   * @param expectedPods its {@code status.expectedPods}
   */
  public record Pdb(String namespace, String name, Map<String, String> matchLabels, Integer minAvailable,
      Integer maxUnavailable, int expectedPods) {
    public Pdb {
      matchLabels = Map.copyOf(matchLabels);
    }

    /** The fewest healthy pods it allows: {@code minAvailable}, else {@code expectedPods - maxUnavailable}. */
    public int floor() {
      if (minAvailable != null) {
        return minAvailable;
      }
      return maxUnavailable == null ? 0 : expectedPods - maxUnavailable;
    }

    public boolean selects(PodState pod) {
      return pod.namespace().equals(namespace) && pod.labels().entrySet().containsAll(matchLabels.entrySet());
    }

    public String key() {
      return namespace + "/" + name;
    }
  }

  /**
   * A replacement workflow execution and its search attributes ({@code FarrierNodeClaim}, {@code FarrierNode},
   * {@code FarrierNodePool}, {@code FarrierReason}; null when unset).
   */
  public record Replacement(String workflowId, String runId, String nodeClaim, String node, String nodePool, String reason) {}
}

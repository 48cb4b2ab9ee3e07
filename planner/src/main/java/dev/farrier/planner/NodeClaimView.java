package dev.farrier.planner;

/**
 * A NodeClaim and its Node as the disruption planner sees them, read by an activity.
 *
 * @param name                          NodeClaim name
 * @param nodePool                      label {@code karpenter.sh/nodepool}
 * @param nodeClassName                 {@code spec.nodeClassRef.name}
 * @param nodeName                      {@code status.nodeName}, null before registration
 * @param instanceId                    the EC2 instance id parsed from {@code status.providerID}, null before launch
 * @param imageId                       {@code status.imageID}
 * @param arch                          label {@code kubernetes.io/arch} ({@code amd64}, {@code arm64})
 * @param nodePoolHash                  annotation {@code karpenter.sh/nodepool-hash}, null when absent
 * @param capacityType                  label {@code karpenter.sh/capacity-type}
 * @param instanceType                  label {@code node.kubernetes.io/instance-type}
 * @param zone                          label {@code topology.kubernetes.io/zone}
 * @param registered                    condition Registered is True
 * @param initialized                   condition Initialized is True
 * @param deleting                      {@code metadata.deletionTimestamp} is set
 * @param disruptedTaint                the Node (or the claim's spec) carries {@code karpenter.sh/disrupted:NoSchedule};
 *                                      without {@code replacementActive} a taint left by a replacement that is gone
 * @param aborted                       annotation {@code farrier.dev/replacement-aborted} is present on the claim
 * @param doNotDisrupt                  {@code karpenter.sh/do-not-disrupt: "true"} on the NodeClaim or its Node
 * @param createdAtMillis               {@code metadata.creationTimestamp} in epoch millis
 * @param driftedSinceMillis            lastTransitionTime of a True {@code Drifted} condition, null when none (the
 *                                      planner then orders by creation time)
 * @param expireAfter                   {@code spec.expireAfter}, null to fall back to the NodePool's
 * @param terminationGracePeriodSeconds {@code spec.terminationGracePeriod} in seconds, null to fall back to the
 *                                      NodePool's
 * @param pods                          the pods bound to its Node
 * @param replacementActive             a replacement workflow runs for it (tainted yet or not) or completed moments
 *                                      ago (its deletion may not show yet)
 * @param rebalanceRecommended          EC2 recommended rebalancing its instance away and its NodePool opted in
 *                                      ({@code farrier.dev/rebalance-recommended} on the Node): a voluntary disruption
 * @param initializedAtMillis           lastTransitionTime of a True {@code Initialized} condition, null when none
 * @param lastPodEventMillis            the last time a pod was bound to or left the node: the later of
 *                                      {@code status.lastPodEventTime} and its bound pods' scheduling times; null when
 *                                      none is known (consolidation then counts from {@link #initializedAtMillis})
 * @param nominated                     why the node holds room for pods not bound to it yet (pods promised to it at
 *                                      launch, or pods of a node it replaces that are still being drained), null when it
 *                                      holds none: such a node is never consolidated, as Karpenter leaves nominated nodes
 * @param labels                        the claim's labels (the Node's for keys the claim lacks), what requirements drift
 *                                      checks against its NodePool's requirements; empty when unknown (not compared)
 * @param launchedWith                  what the launch recorded on the claim (node class hash, subnet, security groups)
 * @param nodeClass                     its EC2NodeClass as it is now (the claim's, else its NodePool's), null when
 *                                      unknown: what {@code launchedWith} is compared with
 * @param nodeConditions                its Node's {@code status.conditions} (empty without a Node), which node repair
 *                                      reads ({@link Repair})
 */
public record NodeClaimView(
    String name,
    String nodePool,
    String nodeClassName,
    String nodeName,
    String instanceId,
    String imageId,
    String arch,
    String nodePoolHash,
    String capacityType,
    String instanceType,
    String zone,
    boolean registered,
    boolean initialized,
    boolean deleting,
    boolean disruptedTaint,
    boolean aborted,
    boolean doNotDisrupt,
    long createdAtMillis,
    Long driftedSinceMillis,
    String expireAfter,
    Long terminationGracePeriodSeconds,
    PodsOnNode pods,
    boolean replacementActive,
    boolean rebalanceRecommended,
    Long initializedAtMillis,
    Long lastPodEventMillis,
    String nominated,
    java.util.Map<String, String> labels,
    LaunchedWith launchedWith,
    NodeClassView nodeClass,
    java.util.List<NodeConditionView> nodeConditions) {
  public NodeClaimView {
    pods = pods == null ? PodsOnNode.NONE : pods;
    nodeConditions = nodeConditions == null ? java.util.List.of() : java.util.List.copyOf(nodeConditions);
    labels = labels == null ? java.util.Map.of() : java.util.Map.copyOf(labels);
    launchedWith = launchedWith == null ? LaunchedWith.UNKNOWN : launchedWith;
  }

  /** A claim with nothing known of its pod events (consolidation counts from creation when initialized). */
  public NodeClaimView(String name, String nodePool, String nodeClassName, String nodeName, String instanceId, String imageId,
      String arch, String nodePoolHash, String capacityType, String instanceType, String zone, boolean registered,
      boolean initialized, boolean deleting, boolean disruptedTaint, boolean aborted, boolean doNotDisrupt, long createdAtMillis,
      Long driftedSinceMillis, String expireAfter, Long terminationGracePeriodSeconds, PodsOnNode pods,
      boolean replacementActive, boolean rebalanceRecommended) {
    this(name, nodePool, nodeClassName, nodeName, instanceId, imageId, arch, nodePoolHash, capacityType, instanceType, zone,
        registered, initialized, deleting, disruptedTaint, aborted, doNotDisrupt, createdAtMillis, driftedSinceMillis, expireAfter,
        terminationGracePeriodSeconds, pods, replacementActive, rebalanceRecommended, null, null, null, null, null, null, null);
  }

  /** A claim whose Node's conditions and drift facts are not known. */
  public NodeClaimView(String name, String nodePool, String nodeClassName, String nodeName, String instanceId, String imageId,
      String arch, String nodePoolHash, String capacityType, String instanceType, String zone, boolean registered,
      boolean initialized, boolean deleting, boolean disruptedTaint, boolean aborted, boolean doNotDisrupt, long createdAtMillis,
      Long driftedSinceMillis, String expireAfter, Long terminationGracePeriodSeconds, PodsOnNode pods,
      boolean replacementActive, boolean rebalanceRecommended, Long initializedAtMillis, Long lastPodEventMillis, String nominated) {
    this(name, nodePool, nodeClassName, nodeName, instanceId, imageId, arch, nodePoolHash, capacityType, instanceType, zone,
        registered, initialized, deleting, disruptedTaint, aborted, doNotDisrupt, createdAtMillis, driftedSinceMillis, expireAfter,
        terminationGracePeriodSeconds, pods, replacementActive, rebalanceRecommended, initializedAtMillis, lastPodEventMillis,
        nominated, null, null, null, null);
  }

  /** The same claim with its Node's conditions (node repair's input). */
  public NodeClaimView withNodeConditions(java.util.List<NodeConditionView> conditions) {
    return new NodeClaimView(name, nodePool, nodeClassName, nodeName, instanceId, imageId, arch, nodePoolHash, capacityType,
        instanceType, zone, registered, initialized, deleting, disruptedTaint, aborted, doNotDisrupt, createdAtMillis,
        driftedSinceMillis, expireAfter, terminationGracePeriodSeconds, pods, replacementActive, rebalanceRecommended,
        initializedAtMillis, lastPodEventMillis, nominated, labels, launchedWith, nodeClass, conditions);
  }

  /** The same claim seen by its own replacement before that has tainted it: the replacement running is not counted. */
  public NodeClaimView withoutOwnReplacement() {
    return withReplacementActive(false);
  }

  /** The same claim, with {@code replacementActive} as its caller knows it. */
  public NodeClaimView withReplacementActive(boolean active) {
    return new NodeClaimView(name, nodePool, nodeClassName, nodeName, instanceId, imageId, arch, nodePoolHash, capacityType,
        instanceType, zone, registered, initialized, deleting, disruptedTaint, aborted, doNotDisrupt, createdAtMillis,
        driftedSinceMillis, expireAfter, terminationGracePeriodSeconds, pods, active, rebalanceRecommended,
        initializedAtMillis, lastPodEventMillis, nominated, labels, launchedWith, nodeClass, nodeConditions);
  }

  /** The same claim with its pod-event facts. */
  public NodeClaimView withPodEvents(Long initializedAt, Long lastPodEvent, String nominatedFor) {
    return new NodeClaimView(name, nodePool, nodeClassName, nodeName, instanceId, imageId, arch, nodePoolHash, capacityType,
        instanceType, zone, registered, initialized, deleting, disruptedTaint, aborted, doNotDisrupt, createdAtMillis,
        driftedSinceMillis, expireAfter, terminationGracePeriodSeconds, pods, replacementActive, rebalanceRecommended,
        initializedAt, lastPodEvent, nominatedFor, labels, launchedWith, nodeClass, nodeConditions);
  }

  /** The same claim with what drift compares beyond its image and NodePool hash ({@link DriftCheck}). */
  public NodeClaimView withDriftFacts(java.util.Map<String, String> claimLabels, LaunchedWith launched, NodeClassView itsNodeClass) {
    return new NodeClaimView(name, nodePool, nodeClassName, nodeName, instanceId, imageId, arch, nodePoolHash, capacityType,
        instanceType, zone, registered, initialized, deleting, disruptedTaint, aborted, doNotDisrupt, createdAtMillis,
        driftedSinceMillis, expireAfter, terminationGracePeriodSeconds, pods, replacementActive, rebalanceRecommended,
        initializedAtMillis, lastPodEventMillis, nominated, claimLabels, launched, itsNodeClass, nodeConditions);
  }

  /** A claim whose taint, when present, belongs to a running replacement (as the snapshot said before it said more). */
  public NodeClaimView(String name, String nodePool, String nodeClassName, String nodeName, String instanceId, String imageId,
      String arch, String nodePoolHash, String capacityType, String instanceType, String zone, boolean registered,
      boolean initialized, boolean deleting, boolean disruptedTaint, boolean aborted, boolean doNotDisrupt, long createdAtMillis,
      Long driftedSinceMillis, String expireAfter, Long terminationGracePeriodSeconds, PodsOnNode pods) {
    this(name, nodePool, nodeClassName, nodeName, instanceId, imageId, arch, nodePoolHash, capacityType, instanceType, zone,
        registered, initialized, deleting, disruptedTaint, aborted, doNotDisrupt, createdAtMillis, driftedSinceMillis, expireAfter,
        terminationGracePeriodSeconds, pods, disruptedTaint, false);
  }

  /** Being disrupted, whatever step it is in: deleting, tainted, or held by a replacement. Counts against budgets. */
  public boolean beingDisrupted() {
    return deleting || disruptedTaint || replacementActive;
  }
}

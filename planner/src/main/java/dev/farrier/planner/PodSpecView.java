package dev.farrier.planner;

import dev.farrier.model.PodRef;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.Toleration;
import java.util.List;
import java.util.Map;

/**
 * What the planners need to know about one pod, read by an activity from the Pod object.
 *
 * @param pod                   the pod's name and uid
 * @param requests              effective requests: max(sum of containers, largest init container) plus the pod's
 *                              {@code overhead}, computed by the caller; the {@code pods} amount is ignored because
 *                              the planner counts every pod as exactly one
 * @param nodeSelector          {@code spec.nodeSelector}
 * @param requiredAffinityTerms {@code requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms}: the outer
 *                              list is ORed, each inner list ANDed ({@code matchExpressions} only; empty when unset)
 * @param tolerations           {@code spec.tolerations}
 * @param ownerKind             kind of the controller owner reference ({@code DaemonSet}, {@code ReplicaSet},
 *                              {@code StatefulSet}, {@code Job}, ...), {@code Node} for a mirror (static) pod,
 *                              null for a bare pod
 * @param doNotDisrupt          the pod carries {@code karpenter.sh/do-not-disrupt: "true"}
 * @param labels                the pod's labels (what other pods' spread and affinity selectors match)
 * @param preferredAffinity     {@code preferredDuringSchedulingIgnoredDuringExecution} node affinity terms
 * @param topologySpread        {@code topologySpreadConstraints}
 * @param podAffinity           pod affinity and anti-affinity terms, required and preferred
 * @param volumeRequirements    node requirements its volumes impose, resolved by the activity: the zone of a bound
 *                              PersistentVolume's node affinity, or, for an unbound claim whose StorageClass is
 *                              WaitForFirstConsumer, its {@code allowedTopologies}; ANDed with everything else
 * @param hostPorts             the {@code hostPort}s its containers ask for: no two pods whose ports conflict share a
 *                              node ({@link HostPort#conflictsWith})
 * @param csiVolumes            its PersistentVolumeClaims that attach through a CSI driver, resolved by the activity:
 *                              they count against an existing node's CSINode volume limits
 */
public record PodSpecView(
    PodRef pod,
    Resources requests,
    Map<String, String> nodeSelector,
    List<List<Requirement>> requiredAffinityTerms,
    List<Toleration> tolerations,
    String ownerKind,
    boolean doNotDisrupt,
    Map<String, String> labels,
    List<PreferredNodeTerm> preferredAffinity,
    List<TopologySpread> topologySpread,
    List<PodAffinityTerm> podAffinity,
    List<Requirement> volumeRequirements,
    List<HostPort> hostPorts,
    List<CsiVolume> csiVolumes) {
  public static final String OWNER_DAEMON_SET = "DaemonSet";
  public static final String OWNER_NODE = "Node";

  public PodSpecView {
    requests = requests == null ? Resources.ZERO : requests;
    nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector);
    requiredAffinityTerms = requiredAffinityTerms == null
        ? List.of()
        : requiredAffinityTerms.stream().map(List::copyOf).toList();
    tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    preferredAffinity = preferredAffinity == null ? List.of() : List.copyOf(preferredAffinity);
    topologySpread = topologySpread == null ? List.of() : List.copyOf(topologySpread);
    podAffinity = podAffinity == null ? List.of() : List.copyOf(podAffinity);
    volumeRequirements = volumeRequirements == null ? List.of() : List.copyOf(volumeRequirements);
    hostPorts = hostPorts == null ? List.of() : List.copyOf(hostPorts);
    csiVolumes = csiVolumes == null ? List.of() : List.copyOf(csiVolumes);
  }

  /** A pod that asks for no host port and attaches no CSI volume. */
  public PodSpecView(PodRef pod, Resources requests, Map<String, String> nodeSelector,
      List<List<Requirement>> requiredAffinityTerms, List<Toleration> tolerations, String ownerKind, boolean doNotDisrupt,
      Map<String, String> labels, List<PreferredNodeTerm> preferredAffinity, List<TopologySpread> topologySpread,
      List<PodAffinityTerm> podAffinity, List<Requirement> volumeRequirements) {
    this(pod, requests, nodeSelector, requiredAffinityTerms, tolerations, ownerKind, doNotDisrupt, labels,
        preferredAffinity, topologySpread, podAffinity, volumeRequirements, List.of(), List.of());
  }

  /** The same pod asking for these host ports. */
  public PodSpecView withHostPorts(List<HostPort> ports) {
    return new PodSpecView(pod, requests, nodeSelector, requiredAffinityTerms, tolerations, ownerKind, doNotDisrupt, labels,
        preferredAffinity, topologySpread, podAffinity, volumeRequirements, ports, csiVolumes);
  }

  /** The same pod attaching these CSI volumes. */
  public PodSpecView withCsiVolumes(List<CsiVolume> volumes) {
    return new PodSpecView(pod, requests, nodeSelector, requiredAffinityTerms, tolerations, ownerKind, doNotDisrupt, labels,
        preferredAffinity, topologySpread, podAffinity, volumeRequirements, hostPorts, volumes);
  }

  /** A pod with node constraints only (no labels, preferences, spread, pod affinity or volumes). */
  public PodSpecView(PodRef pod, Resources requests, Map<String, String> nodeSelector,
      List<List<Requirement>> requiredAffinityTerms, List<Toleration> tolerations, String ownerKind, boolean doNotDisrupt) {
    this(pod, requests, nodeSelector, requiredAffinityTerms, tolerations, ownerKind, doNotDisrupt, Map.of(), List.of(),
        List.of(), List.of(), List.of(), List.of(), List.of());
  }

  /**
   * Whether evicting this pod means it needs a home elsewhere: DaemonSet pods come back with the new node and
   * mirror pods belong to the node itself (Karpenter's {@code IsReschedulable}).
   */
  public boolean reschedulable() {
    return !OWNER_DAEMON_SET.equals(ownerKind) && !OWNER_NODE.equals(ownerKind);
  }

  /** The requests with exactly one pod counted. */
  public Resources requestsAsOnePod() {
    Resources r = requests;
    return new Resources(r.milliCpu(), r.memoryBytes(), r.ephemeralStorageBytes(), 1, r.extended());
  }
}

package dev.farrier.activities.cloud.aws.userdata;

import dev.farrier.activities.crd.KubeletConfiguration;
import dev.farrier.model.GoDurations;
import dev.farrier.planner.NodeKubelet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The kubelet settings every family renders: the max pods and kube-reserved the planner assumed for this node
 * ({@link NodeKubelet}), and the rest of the EC2NodeClass's {@code kubelet} as written. Maps are sorted so the same
 * node renders the same bytes. Empty maps and null values are not rendered (the kubelet keeps its default).
 */
record KubeletValues(
    Long maxPods,
    List<String> clusterDns,
    Map<String, String> kubeReserved,
    Map<String, String> systemReserved,
    Map<String, String> evictionHard,
    Map<String, String> evictionSoft,
    Map<String, String> evictionSoftGracePeriod,
    Integer evictionMaxPodGracePeriod,
    Integer imageGCHighThresholdPercent,
    Integer imageGCLowThresholdPercent,
    Boolean cpuCFSQuota) {

  /**
   * Throws {@link IllegalArgumentException} for a soft eviction threshold without a grace period (the kubelet would
   * refuse to start) or a grace period that is not a duration such as {@code 1m30s}.
   */
  static KubeletValues of(KubeletConfiguration kubelet, NodeKubelet node) {
    KubeletConfiguration k = kubelet != null ? kubelet
        : new KubeletConfiguration(null, null, null, null, null, null, null, null, null, null, null, null);
    Map<String, String> kubeReserved = sorted(k.kubeReserved());
    Long maxPods = k.maxPods() == null ? null : (long) k.maxPods();
    if (node != null) {
      kubeReserved.putAll(node.kubeReservedQuantities());
      maxPods = node.maxPods();
    }
    Map<String, String> soft = sorted(k.evictionSoft());
    Map<String, String> grace = sorted(k.evictionSoftGracePeriod());
    for (String signal : soft.keySet()) {
      if (!grace.containsKey(signal)) {
        throw new IllegalArgumentException("kubelet.evictionSoft has " + signal + " but kubelet.evictionSoftGracePeriod has no " + signal
            + " (the kubelet needs a grace period for each soft threshold)");
      }
    }
    grace.forEach((signal, period) -> {
      if (GoDurations.toMillis(period) == null) {
        throw new IllegalArgumentException("kubelet.evictionSoftGracePeriod " + signal + " '" + period
            + "' is not a duration such as 1m30s");
      }
    });
    return new KubeletValues(maxPods, k.clusterDNS() == null ? List.of() : List.copyOf(k.clusterDNS()), kubeReserved,
        sorted(k.systemReserved()), sorted(k.evictionHard()), soft, grace, k.evictionMaxPodGracePeriod(),
        k.imageGCHighThresholdPercent(), k.imageGCLowThresholdPercent(), k.cpuCFSQuota());
  }

  private static Map<String, String> sorted(Map<String, String> values) {
    return values == null ? new TreeMap<>() : new TreeMap<>(values);
  }
}

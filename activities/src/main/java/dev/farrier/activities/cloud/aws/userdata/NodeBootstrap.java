package dev.farrier.activities.cloud.aws.userdata;

import dev.farrier.activities.crd.KubeletConfiguration;
import dev.farrier.model.Taint;
import dev.farrier.planner.NodeKubelet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a node needs to join the cluster, independent of the image family: the cluster (name, API endpoint, CA
 * bundle in base64, service CIDR), the labels and taints it registers with, the kubelet settings of its
 * EC2NodeClass with the max pods and kube-reserved the planner assumed for its instance type ({@code node}; null for
 * the node class's own values only), the user's own user data, and whether the node makes its instance-store disks
 * one RAID0 array for its ephemeral storage ({@code instanceStorePolicy: RAID0}). Labels are kept sorted so the same node renders the same bytes (and
 * so reuses the same launch template).
 */
public record NodeBootstrap(
    String clusterName,
    String apiServerEndpoint,
    String caBundle,
    String serviceCidr,
    Map<String, String> labels,
    List<Taint> taints,
    KubeletConfiguration kubelet,
    NodeKubelet node,
    String userData,
    boolean instanceStoreRaid0) {
  public NodeBootstrap {
    labels = labels == null ? Map.of() : new TreeMap<>(labels);
    taints = taints == null ? List.of() : List.copyOf(taints);
  }

  /** What the kubelet is told; throws {@link IllegalArgumentException} for settings the kubelet would refuse. */
  KubeletValues kubeletValues() {
    return KubeletValues.of(kubelet, node);
  }

  /** {@code key=value:Effect} or {@code key:Effect}, as kubelet's {@code --register-with-taints} takes them. */
  static String taintFlag(Taint t) {
    return t.key() + (t.value() == null || t.value().isEmpty() ? "" : "=" + t.value()) + ":" + t.effect();
  }
}

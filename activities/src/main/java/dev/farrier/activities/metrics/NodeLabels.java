package dev.farrier.activities.metrics;

import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The labels of Karpenter's node metrics: one per well-known node label (Karpenter's and the AWS provider's
 * {@code WellKnownLabels}), named by the part after its prefix in snake case ({@code karpenter.k8s.aws/instance-family}
 * is {@code instance_family}), then {@code node_name}, {@code phase} and {@code managed}.
 */
public final class NodeLabels {
  private NodeLabels() {}

  /** Karpenter v1.14.1's well-known labels with the AWS provider's, as its node metrics carry them. */
  static final List<String> WELL_KNOWN = List.of(WellKnown.NODEPOOL_LABEL, WellKnown.ZONE_LABEL, "topology.kubernetes.io/region",
      "node.kubernetes.io/instance-type", "kubernetes.io/arch", "kubernetes.io/os", WellKnown.CAPACITY_TYPE_LABEL,
      "node.kubernetes.io/windows-build", "karpenter.k8s.aws/capacity-reservation-id", "karpenter.k8s.aws/capacity-reservation-type",
      "karpenter.k8s.aws/capacity-reservation-interruptible", "karpenter.k8s.aws/instance-hypervisor",
      "karpenter.k8s.aws/instance-encryption-in-transit-supported", "karpenter.k8s.aws/instance-category",
      "karpenter.k8s.aws/instance-capability-flex", "karpenter.k8s.aws/instance-family", "karpenter.k8s.aws/instance-generation",
      "karpenter.k8s.aws/instance-size", "karpenter.k8s.aws/instance-local-nvme", "karpenter.k8s.aws/instance-cpu",
      "karpenter.k8s.aws/instance-cpu-manufacturer", "karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz",
      "karpenter.k8s.aws/instance-memory", "karpenter.k8s.aws/instance-ebs-bandwidth", "karpenter.k8s.aws/instance-network-bandwidth",
      "karpenter.k8s.aws/instance-gpu-name", "karpenter.k8s.aws/instance-gpu-manufacturer", "karpenter.k8s.aws/instance-gpu-count",
      "karpenter.k8s.aws/instance-gpu-memory", "karpenter.k8s.aws/instance-accelerator-name",
      "karpenter.k8s.aws/instance-accelerator-manufacturer", "karpenter.k8s.aws/instance-accelerator-count",
      WellKnown.ZONE_ID_LABEL, "karpenter.k8s.aws/instance-tenancy", "karpenter.k8s.aws/placement-group-id",
      "karpenter.k8s.aws/placement-group-partition");

  /** The label names of a node gauge; {@code withResourceType} adds {@code resource_type} last. */
  static String[] names(boolean withResourceType) {
    List<String> names = new ArrayList<>(WELL_KNOWN.stream().map(NodeLabels::metricLabel).toList());
    names.addAll(List.of("node_name", "phase", "managed"));
    if (withResourceType) {
      names.add("resource_type");
    }
    return names.toArray(String[]::new);
  }

  /**
   * The values, in {@link #names} order, of {@code node} (managed: it carries a NodePool's label) and
   * {@code resourceType} (null for a gauge without one).
   */
  public static List<String> values(Node node, String resourceType) {
    Map<String, String> labels = node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
    List<String> values = new ArrayList<>(WELL_KNOWN.stream().map(k -> labels.getOrDefault(k, "")).toList());
    values.add(node.getMetadata().getName());
    values.add(node.getStatus() == null || node.getStatus().getPhase() == null ? "" : node.getStatus().getPhase());
    values.add(String.valueOf(labels.containsKey(WellKnown.NODEPOOL_LABEL)));
    if (resourceType != null) {
      values.add(resourceType);
    }
    return values;
  }

  /** Karpenter's word for a resource or label key: lower case, {@code -} as {@code _}. */
  public static String snake(String name) {
    return name.toLowerCase(Locale.ROOT).replace('-', '_');
  }

  private static String metricLabel(String key) {
    return snake(key.substring(key.indexOf('/') + 1));
  }
}

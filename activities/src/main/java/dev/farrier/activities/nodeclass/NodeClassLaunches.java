package dev.farrier.activities.nodeclass;

import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.NodeClassLaunch;
import dev.farrier.activities.cloud.WindowsFamily;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassStatus;
import dev.farrier.activities.crd.KubeletConfiguration;
import dev.farrier.activities.crd.ResolvedSecurityGroup;
import dev.farrier.activities.temporal.Failures;
import dev.farrier.activities.views.ResourceQuantities;
import dev.farrier.model.Resources;
import dev.farrier.planner.EvictionThreshold;
import dev.farrier.planner.KubeletSettings;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an EC2NodeClass gives a launch: boot settings from its spec, subnets, security groups and instance profile
 * from the status the status loop wrote. A class whose status lacks any of them is not ready to launch from. Its
 * kubelet settings are read here for the launch and the planners alike ({@link #kubelet}).
 */
public final class NodeClassLaunches {
  private NodeClassLaunches() {}

  /**
   * Throws {@code NodeClassNotResolved} (retried) while the status loop has not yet written a Ready condition, and
   * {@code NodeClassNotReady} (permanent) naming every missing piece once it has.
   */
  public static NodeClassLaunch of(EC2NodeClass nodeClass) {
    var spec = nodeClass.getSpec();
    var status = nodeClass.getStatus();
    String name = nodeClass.getMetadata().getName();
    List<String> missing = new ArrayList<>();
    if (status == null || status.subnets() == null || status.subnets().isEmpty()) {
      missing.add("status.subnets (subnetSelectorTerms resolved to no subnet yet)");
    }
    if (status == null || status.securityGroups() == null || status.securityGroups().isEmpty()) {
      missing.add("status.securityGroups (securityGroupSelectorTerms resolved to no security group yet)");
    }
    if (status == null || status.instanceProfile() == null || status.instanceProfile().isBlank()) {
      missing.add("status.instanceProfile (spec.role or spec.instanceProfile not resolved yet)");
    }
    if (!missing.isEmpty() && (status == null || Conditions.find(status.conditionsOrEmpty(), EC2NodeClassStatus.READY).isEmpty())) {
      throw Failures.nodeClassNotResolved("EC2NodeClass " + name + " has not been resolved by the status loop yet; its status lacks "
          + String.join(", ", missing));
    }
    if (!missing.isEmpty()) {
      throw Failures.nodeClassNotReady("EC2NodeClass " + name + " cannot launch nodes: its status lacks " + String.join(", ", missing));
    }
    return new NodeClassLaunch(amiFamily(nodeClass), status.subnets(),
        status.securityGroups().stream().map(ResolvedSecurityGroup::id).toList(), status.instanceProfile(), spec.userData(),
        spec.kubelet(), spec.metadataOptions(), spec.blockDeviceMappings(), spec.tagsOrEmpty(),
        kubelet(nodeClass), spec.instanceStorePolicy(), spec.associatePublicIPAddress(), spec.detailedMonitoring(),
        spec.connectionTracking(), spec.ipPrefixCount(), spec.cpuOptions(), spec.context());
  }

  /**
   * Whether a node of the class can be launched as {@code type} whatever its image: with {@code connectionTracking} only
   * as a Nitro type, as Karpenter narrows it (EC2 sets connection tracking timeouts on Nitro network interfaces only).
   */
  public static boolean admits(EC2NodeClass nodeClass, InstanceType type) {
    return nodeClass == null || nodeClass.getSpec() == null || nodeClass.getSpec().connectionTracking() == null
        || "nitro".equals(type.facts().hypervisor());
  }

  /** {@code spec.amiFamily}, or the family an alias term names ({@link dev.farrier.activities.crd.EC2NodeClassSpec#resolvedAmiFamily}). */
  public static String amiFamily(EC2NodeClass nodeClass) {
    return nodeClass.getSpec().resolvedAmiFamily();
  }

  /**
   * The kubelet settings of the class's nodes as the planner counts them: max pods, reserved resources, eviction
   * thresholds. A Windows class without {@code maxPods} gets {@link WindowsFamily#DEFAULT_MAX_PODS} (Karpenter's
   * Windows families have no ENI-limited pod density), which kube-reserved memory then follows.
   */
  public static KubeletSettings kubelet(EC2NodeClass nodeClass) {
    KubeletConfiguration k = nodeClass == null || nodeClass.getSpec() == null ? null : nodeClass.getSpec().kubelet();
    Integer windowsMaxPods = nodeClass != null && nodeClass.getSpec() != null && WindowsFamily.isWindows(amiFamily(nodeClass))
        ? WindowsFamily.DEFAULT_MAX_PODS : null;
    if (k == null) {
      return windowsMaxPods == null ? KubeletSettings.DEFAULTS
          : new KubeletSettings(windowsMaxPods, null, null, null, List.of(), List.of());
    }
    return new KubeletSettings(k.maxPods() != null ? k.maxPods() : windowsMaxPods, k.podsPerCore(), quantities(k.kubeReserved()), quantities(k.systemReserved()),
        thresholds("memory.available", k.evictionHard(), k.evictionSoft()), thresholds("nodefs.available", k.evictionHard(), k.evictionSoft()));
  }

  /** The signal's hard and soft thresholds (the node evicts at the larger, as Karpenter reserves it): a percentage or bytes. */
  private static List<EvictionThreshold> thresholds(String signal, Map<String, String> hard, Map<String, String> soft) {
    List<EvictionThreshold> thresholds = new ArrayList<>();
    for (Map<String, String> set : Arrays.asList(hard, soft)) {
      String value = set == null ? null : set.get(signal);
      if (value != null) {
        thresholds.add(value.endsWith("%") ? EvictionThreshold.ofPercent(Double.parseDouble(value.substring(0, value.length() - 1)))
            : EvictionThreshold.ofBytes(ResourceQuantities.fromQuantities(Map.of("memory", new Quantity(value))).memoryBytes()));
      }
    }
    return thresholds;
  }

  private static Resources quantities(Map<String, String> values) {
    if (values == null || values.isEmpty()) {
      return null;
    }
    Map<String, Quantity> q = new TreeMap<>();
    values.forEach((k, v) -> q.put(k, new Quantity(v)));
    return ResourceQuantities.fromQuantities(q);
  }
}

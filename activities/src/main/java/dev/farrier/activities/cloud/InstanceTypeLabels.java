package dev.farrier.activities.cloud;

import dev.farrier.model.WellKnown;
import dev.farrier.planner.InstanceTypeView;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every {@code karpenter.k8s.aws/instance-*} label a node of a type carries, the one place they are made: what the
 * planner selects on ({@code InstanceTypeViews}), what a launch records on its NodeClaim ({@code DriftFacts}) and what
 * the simulated kubelet puts on its Node. Values as karpenter-provider-aws writes them: names lower case with spaces
 * as dashes ({@code radeon-pro-v520}), numbers in the units of their names; a label is left out when its fact is
 * unknown, and the GPU and accelerator labels exist only on types that have them.
 */
public final class InstanceTypeLabels {
  private InstanceTypeLabels() {}

  public static Map<String, String> of(InstanceType type) {
    Map<String, String> labels = new TreeMap<>(InstanceTypeView.standardLabels(type.name(), type.vcpu(), type.memoryMiB()));
    InstanceFacts facts = type.facts();
    put(labels, WellKnown.INSTANCE_HYPERVISOR_LABEL, facts.hypervisor());
    put(labels, WellKnown.INSTANCE_CPU_MANUFACTURER_LABEL, kebab(facts.cpuManufacturer()));
    put(labels, WellKnown.INSTANCE_CPU_SUSTAINED_CLOCK_SPEED_MHZ_LABEL, facts.sustainedClockMhz());
    put(labels, WellKnown.INSTANCE_LOCAL_NVME_LABEL, facts.localNvmeGib());
    put(labels, WellKnown.INSTANCE_NETWORK_BANDWIDTH_LABEL, facts.networkBandwidthMbps());
    put(labels, WellKnown.INSTANCE_EBS_BANDWIDTH_LABEL, facts.ebsBandwidthMbps());
    put(labels, WellKnown.INSTANCE_ENCRYPTION_IN_TRANSIT_LABEL, facts.encryptionInTransit());
    labels.put(WellKnown.INSTANCE_CAPABILITY_FLEX_LABEL, Boolean.toString(type.name().contains("flex")));
    if (type.gpuCount() > 0) {
      put(labels, WellKnown.INSTANCE_GPU_NAME_LABEL, kebab(type.gpuName()));
      put(labels, WellKnown.INSTANCE_GPU_MANUFACTURER_LABEL, kebab(type.gpuManufacturer()));
      labels.put(WellKnown.INSTANCE_GPU_COUNT_LABEL, Integer.toString(type.gpuCount()));
      put(labels, WellKnown.INSTANCE_GPU_MEMORY_LABEL, facts.gpuMemoryMib());
    }
    if (facts.acceleratorCount() != null && facts.acceleratorCount() > 0) {
      put(labels, WellKnown.INSTANCE_ACCELERATOR_NAME_LABEL, kebab(facts.acceleratorName()));
      put(labels, WellKnown.INSTANCE_ACCELERATOR_MANUFACTURER_LABEL, kebab(facts.acceleratorManufacturer()));
      labels.put(WellKnown.INSTANCE_ACCELERATOR_COUNT_LABEL, Integer.toString(facts.acceleratorCount()));
    }
    return labels;
  }

  private static void put(Map<String, String> labels, String key, Object value) {
    if (value != null && !value.toString().isBlank()) {
      labels.put(key, value.toString());
    }
  }

  private static String kebab(String name) {
    return name == null ? null : name.trim().toLowerCase(Locale.ROOT).replace(' ', '-');
  }
}

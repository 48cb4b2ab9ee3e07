package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.InstanceFacts;
import software.amazon.awssdk.services.ec2.model.InstanceTypeInfo;
import software.amazon.awssdk.services.ec2.model.NetworkCardInfo;

/**
 * The {@link InstanceFacts} of one DescribeInstanceTypes entry, as karpenter-provider-aws reads them: the instance store
 * with whether its disks are NVMe; the accelerator from NeuronInfo, else from the older
 * InferenceAcceleratorInfo. A fact EC2 leaves out stays null.
 */
final class Ec2InstanceFacts {
  private Ec2InstanceFacts() {}

  static InstanceFacts of(InstanceTypeInfo info) {
    var processor = info.processorInfo();
    var storage = info.instanceStorageInfo();
    var network = info.networkInfo();
    var ebs = info.ebsInfo() == null ? null : info.ebsInfo().ebsOptimizedInfo();
    var gpus = info.gpuInfo() == null || !info.gpuInfo().hasGpus() || info.gpuInfo().gpus().isEmpty() ? null : info.gpuInfo().gpus().getFirst();
    Integer networkMbps = network == null || !network.hasNetworkCards() || network.networkCards().isEmpty() ? null
        : (int) Math.round(network.networkCards().stream().map(NetworkCardInfo::baselineBandwidthInGbps)
            .mapToDouble(g -> g == null ? 0 : g).sum() * 1000);
    String acceleratorName = null;
    String acceleratorManufacturer = null;
    Integer acceleratorCount = null;
    if (info.neuronInfo() != null && info.neuronInfo().hasNeuronDevices() && !info.neuronInfo().neuronDevices().isEmpty()) {
      var device = info.neuronInfo().neuronDevices().getFirst();
      acceleratorName = device.name();
      acceleratorManufacturer = "AWS";
      acceleratorCount = device.count();
    } else if (info.inferenceAcceleratorInfo() != null && info.inferenceAcceleratorInfo().hasAccelerators()
        && !info.inferenceAcceleratorInfo().accelerators().isEmpty()) {
      var accelerator = info.inferenceAcceleratorInfo().accelerators().getFirst();
      acceleratorName = accelerator.name();
      acceleratorManufacturer = accelerator.manufacturer();
      acceleratorCount = accelerator.count();
    }
    return new InstanceFacts(
        info.hypervisorAsString(),
        processor == null ? null : processor.manufacturer(),
        processor == null || processor.sustainedClockSpeedInGhz() == null ? null
            : (int) Math.round(processor.sustainedClockSpeedInGhz() * 1000),
        storage == null || storage.totalSizeInGB() == null ? null : Math.toIntExact(storage.totalSizeInGB()),
        storage != null && storage.nvmeSupport() != null && !"unsupported".equals(storage.nvmeSupportAsString()),
        networkMbps,
        ebs == null ? null : ebs.maximumBandwidthInMbps(),
        gpus == null || gpus.memoryInfo() == null ? null : gpus.memoryInfo().sizeInMiB(),
        acceleratorName, acceleratorManufacturer, acceleratorCount,
        network == null ? null : network.encryptionInTransitSupported());
  }
}

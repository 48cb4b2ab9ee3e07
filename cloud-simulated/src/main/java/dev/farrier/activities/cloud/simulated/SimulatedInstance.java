package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.Instance;
import dev.farrier.model.Taint;
import java.util.List;
import java.util.Map;

/**
 * An instance with what its user data would hand the kubelet: the node labels and taints of the launch request
 * (plus {@code karpenter.sh/capacity-type} and the {@code karpenter.sh/unregistered} taint, as Karpenter's
 * bootstrap adds them), and whether it makes its instance-store disks its ephemeral storage
 * ({@code instanceStorePolicy: RAID0}). {@code foreign} instances were registered by a test, not launched, and boot
 * no node.
 */
public record SimulatedInstance(
    Instance instance, String privateIp, Map<String, String> nodeLabels, List<Taint> nodeTaints, boolean foreign,
    boolean instanceStoreRaid0) {
  public SimulatedInstance {
    nodeLabels = Map.copyOf(nodeLabels);
    nodeTaints = List.copyOf(nodeTaints);
  }
}

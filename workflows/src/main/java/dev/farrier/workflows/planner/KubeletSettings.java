package dev.farrier.workflows.planner;

import dev.farrier.workflows.model.Resources;

/**
 * The EC2NodeClass {@code spec.kubelet} settings that change what a node gives pods. Null fields keep Karpenter's
 * AWS defaults ({@link KubeletReserve}): max pods from the instance type's ENI limits, kube-reserved from the
 * instance's size.
 *
 * @param maxPods        {@code maxPods}: replaces the ENI-based limit
 * @param podsPerCore    {@code podsPerCore}: caps max pods at this many per vCPU
 * @param kubeReserved   {@code kubeReserved} (cpu, memory, ephemeral-storage), replacing the default formula for
 *                       each resource it sets (the others keep the default)
 * @param systemReserved {@code systemReserved}, taken off allocatable when set
 * @param evictionHard   the {@code memory.available} hard eviction threshold in bytes, replacing 100Mi when set
 */
public record KubeletSettings(
    Integer maxPods, Integer podsPerCore, Resources kubeReserved, Resources systemReserved, Long evictionHardMemoryBytes) {
  public static final KubeletSettings DEFAULTS = new KubeletSettings(null, null, null, null, null);
}

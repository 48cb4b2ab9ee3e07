package dev.farrier.planner;

import dev.farrier.model.Resources;
import java.util.List;

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
 * @param memoryEviction the {@code memory.available} thresholds of {@code evictionHard} and {@code evictionSoft}: the
 *                       largest is held back; empty keeps the default 100Mi
 * @param nodefsEviction the {@code nodefs.available} thresholds, likewise; empty keeps the default 10%
 */
public record KubeletSettings(Integer maxPods, Integer podsPerCore, Resources kubeReserved, Resources systemReserved,
    List<EvictionThreshold> memoryEviction, List<EvictionThreshold> nodefsEviction) {
  public static final KubeletSettings DEFAULTS = new KubeletSettings(null, null, null, null, List.of(), List.of());

  public KubeletSettings {
    memoryEviction = memoryEviction == null ? List.of() : List.copyOf(memoryEviction);
    nodefsEviction = nodefsEviction == null ? List.of() : List.copyOf(nodefsEviction);
  }

  /** With a hard {@code memory.available} in bytes (null: the default) and the default nodefs threshold. */
  public KubeletSettings(Integer maxPods, Integer podsPerCore, Resources kubeReserved, Resources systemReserved, Long evictionHardMemoryBytes) {
    this(maxPods, podsPerCore, kubeReserved, systemReserved,
        evictionHardMemoryBytes == null ? List.of() : List.of(EvictionThreshold.ofBytes(evictionHardMemoryBytes)), List.of());
  }
}

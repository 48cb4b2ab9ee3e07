package dev.farrier.planner;

import dev.farrier.model.Resources;
import java.util.Map;
import java.util.TreeMap;

/**
 * The kubelet values a node of one instance type gets under its node class's {@link KubeletSettings}, exactly as the
 * planner assumes them ({@link KubeletReserve}): the launch renders these into the node's user data, so a default the
 * planner computes (ENI-based max pods, kube-reserved by size) is the value the kubelet is told.
 *
 * @param maxPods      the node class's {@code maxPods}, else the ENI limit, capped by {@code podsPerCore}
 * @param kubeReserved cpu, memory and ephemeral-storage kube-reserved: the node class's value for each resource it
 *                     sets, else Karpenter's AWS default
 */
public record NodeKubelet(long maxPods, Resources kubeReserved) {
  /** {@link #kubeReserved} as kubelet's {@code kubeReserved} map ({@code cpu: 70m}, {@code memory: 574Mi}, ...), zero left out. */
  public Map<String, String> kubeReservedQuantities() {
    Map<String, String> quantities = new TreeMap<>();
    if (kubeReserved.milliCpu() > 0) {
      quantities.put("cpu", Quantities.cpu(kubeReserved.milliCpu()));
    }
    if (kubeReserved.memoryBytes() > 0) {
      quantities.put("memory", Quantities.bytes(kubeReserved.memoryBytes()));
    }
    if (kubeReserved.ephemeralStorageBytes() > 0) {
      quantities.put("ephemeral-storage", Quantities.bytes(kubeReserved.ephemeralStorageBytes()));
    }
    return quantities;
  }

  /** For a node of {@code capacity} (pods = the ENI limit, ephemeral storage = the root volume). */
  public static NodeKubelet of(Resources capacity, KubeletSettings kubelet) {
    return KubeletReserve.nodeKubelet(capacity, kubelet == null ? KubeletSettings.DEFAULTS : kubelet);
  }
}

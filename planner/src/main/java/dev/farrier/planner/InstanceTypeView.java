package dev.farrier.planner;

import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * An instance type as the provisioning planner sees it, built by an activity from the cloud catalogue.
 *
 * @param name      e.g. {@code m5.large}
 * @param arch      the Kubernetes arch label value: {@code amd64} or {@code arm64}
 * @param labels    the {@code karpenter.k8s.aws/instance-*} labels a node of this type carries (category, family,
 *                  generation, size, cpu, memory, gpu-*...) and, for a Windows node class, {@code kubernetes.io/os}
 *                  and {@code node.kubernetes.io/windows-build}; {@link #standardLabels} derives the usual ones. The
 *                  constructor adds instance type, arch and os (linux unless given), so {@link #labels()} is every label a node of this type
 *                  has that does not depend on the offering, made once per type rather than once per plan
 * @param capacity  what the machine has before any reserve: vCPUs as millicores, memory as EC2 reports it, pods =
 *                  the max pods (ENI formula), ephemeral storage of the root volume, extended resources (GPUs)
 * @param offerings every zone x capacity type offering with its price; unavailable ones are never chosen
 */
public record InstanceTypeView(
    String name, String arch, Map<String, String> labels, Resources capacity, List<OfferingView> offerings) {
  /** The os label of a type whose labels name none (Windows types name theirs). */
  private static final String LINUX = "linux";

  public InstanceTypeView {
    labels = withNodeLabels(labels == null ? Map.of() : Map.copyOf(labels), name, arch);
    offerings = offerings == null ? List.of() : List.copyOf(offerings);
  }

  /**
   * {@code given} (immutable) with instance type, arch and os (linux unless given); itself when it has them already
   * (a copy's labels).
   */
  private static Map<String, String> withNodeLabels(Map<String, String> given, String name, String arch) {
    if (Objects.equals(given.get(WellKnown.INSTANCE_TYPE_LABEL), name) && Objects.equals(given.get(WellKnown.ARCH_LABEL), arch)
        && given.containsKey(WellKnown.OS_LABEL)) {
      return given;
    }
    Map<String, String> all = new HashMap<>(given);
    all.put(WellKnown.INSTANCE_TYPE_LABEL, name);
    all.put(WellKnown.ARCH_LABEL, arch);
    all.putIfAbsent(WellKnown.OS_LABEL, LINUX);
    return Map.copyOf(all);
  }

  /** What a node of this type gives pods under the node class's kubelet settings ({@link KubeletReserve}). */
  public Resources allocatable(KubeletSettings kubelet) {
    return KubeletReserve.allocatable(capacity, kubelet);
  }

  /**
   * Karpenter's AWS labels derived from an EC2 type name ({@code m7gd.2xlarge}: category {@code m}, family
   * {@code m7gd}, generation {@code 7}, size {@code 2xlarge}) and its vCPUs and memory in MiB.
   */
  public static Map<String, String> standardLabels(String typeName, int vcpu, long memoryMiB) {
    Map<String, String> labels = new TreeMap<>();
    int dot = typeName.indexOf('.');
    String family = dot < 0 ? typeName : typeName.substring(0, dot);
    labels.put(WellKnown.INSTANCE_FAMILY_LABEL, family);
    if (dot >= 0) {
      labels.put(WellKnown.INSTANCE_SIZE_LABEL, typeName.substring(dot + 1));
    }
    int i = 0;
    while (i < family.length() && Character.isLetter(family.charAt(i))) {
      i++;
    }
    int j = i;
    while (j < family.length() && Character.isDigit(family.charAt(j))) {
      j++;
    }
    if (i > 0) {
      labels.put(WellKnown.INSTANCE_CATEGORY_LABEL, family.substring(0, i));
    }
    if (j > i) {
      labels.put(WellKnown.INSTANCE_GENERATION_LABEL, family.substring(i, j));
    }
    labels.put(WellKnown.INSTANCE_CPU_LABEL, Integer.toString(vcpu));
    labels.put(WellKnown.INSTANCE_MEMORY_LABEL, Long.toString(memoryMiB));
    return labels;
  }
}

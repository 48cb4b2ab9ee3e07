package dev.farrier.activities.cloud.aws.userdata;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.farrier.model.Taint;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Bottlerocket: TOML settings, read and written by Jackson TOML. The user's TOML is kept; Farrier's
 * {@code settings.kubernetes} values (cluster name, API server, CA, max pods, cluster DNS, kube/system reserved,
 * eviction settings) replace the user's, and node labels and taints are merged, Farrier's winning per key, as
 * Karpenter does. Under {@code instanceStorePolicy: RAID0}, the bootstrap command {@code 000-mount-instance-storage}
 * (always run, essential) has {@code apiclient ephemeral-storage} make the instance-store disks one array and bind
 * containerd's, kubelet's and the pod logs' directories onto it, replacing a command of that name of the user's.
 * Karpenter names those directories for images before Bottlerocket 1.46 and lets newer ones bind their defaults; the
 * user data here does not know the image's version, and the named directories work on every version. TOML that does
 * not parse, or a {@code settings.kubernetes} that is not a table, is rejected with a clear message.
 */
final class BottlerocketUserData implements UserDataFormat {
  private static final TomlMapper TOML = new TomlMapper();
  static final String MOUNT_INSTANCE_STORAGE = "000-mount-instance-storage";
  /** What lives on the ephemeral storage: images, pods' emptyDirs and writable layers, their logs. */
  private static final List<String> EPHEMERAL_DIRS = List.of("/var/lib/containerd", "/var/lib/kubelet", "/var/log/pods");

  @Override
  public String render(NodeBootstrap node) {
    ObjectNode root = parse(node.userData());
    ObjectNode kubernetes = table(table(root, "settings", "settings"), "kubernetes", "settings.kubernetes");
    kubernetes.put("cluster-name", node.clusterName());
    kubernetes.put("api-server", node.apiServerEndpoint());
    kubernetes.put("cluster-certificate", node.caBundle());
    KubeletValues kubelet = node.kubeletValues();
    if (kubelet.maxPods() != null) {
      kubernetes.put("max-pods", kubelet.maxPods());
    }
    if (!kubelet.clusterDns().isEmpty()) {
      kubernetes.put("cluster-dns-ip", kubelet.clusterDns().getFirst());
    }
    merge(kubernetes, "kube-reserved", kubelet.kubeReserved());
    merge(kubernetes, "system-reserved", kubelet.systemReserved());
    merge(kubernetes, "eviction-hard", kubelet.evictionHard());
    merge(kubernetes, "eviction-soft", kubelet.evictionSoft());
    merge(kubernetes, "eviction-soft-grace-period", kubelet.evictionSoftGracePeriod());
    if (kubelet.evictionMaxPodGracePeriod() != null) {
      kubernetes.put("eviction-max-pod-grace-period", kubelet.evictionMaxPodGracePeriod());
    }
    if (kubelet.imageGCHighThresholdPercent() != null) {
      kubernetes.put("image-gc-high-threshold-percent", kubelet.imageGCHighThresholdPercent());
    }
    if (kubelet.imageGCLowThresholdPercent() != null) {
      kubernetes.put("image-gc-low-threshold-percent", kubelet.imageGCLowThresholdPercent());
    }
    if (kubelet.cpuCFSQuota() != null) {
      kubernetes.put("cpu-cfs-quota-enforced", kubelet.cpuCFSQuota());
    }
    merge(kubernetes, "node-labels", node.labels());
    if (!node.taints().isEmpty()) {
      ObjectNode taints = table(kubernetes, "node-taints", "settings.kubernetes.node-taints");
      Map<String, List<Taint>> byKey = node.taints().stream().collect(Collectors.groupingBy(Taint::key, TreeMap::new, Collectors.toList()));
      byKey.forEach((key, list) -> {
        ArrayNode values = taints.putArray(key);
        list.forEach(t -> values.add((t.value() == null ? "" : t.value()) + ":" + t.effect()));
      });
    }
    if (node.instanceStoreRaid0()) {
      mountInstanceStorage(table(table(root, "settings", "settings"), "bootstrap-commands", "settings.bootstrap-commands"));
    }
    try {
      return TOML.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Bottlerocket userData cannot be written as TOML: " + e.getOriginalMessage(), e);
    }
  }

  private static void mountInstanceStorage(ObjectNode bootstrapCommands) {
    ObjectNode command = bootstrapCommands.putObject(MOUNT_INSTANCE_STORAGE);
    ArrayNode commands = command.putArray("commands");
    commands.addArray().add("apiclient").add("ephemeral-storage").add("init");
    ArrayNode bind = commands.addArray().add("apiclient").add("ephemeral-storage").add("bind").add("--dirs");
    EPHEMERAL_DIRS.forEach(bind::add);
    command.put("essential", true);
    command.put("mode", "always");
  }

  /** The user's TOML as a tree (empty when there is none); throws {@link IllegalArgumentException} when it does not parse. */
  static ObjectNode parse(String toml) {
    if (toml == null || toml.isBlank()) {
      return TOML.createObjectNode();
    }
    try {
      return (ObjectNode) TOML.readTree(toml);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Bottlerocket userData is not valid TOML: " + e.getOriginalMessage(), e);
    }
  }

  private static void merge(ObjectNode kubernetes, String name, Map<String, String> values) {
    if (!values.isEmpty()) {
      ObjectNode table = table(kubernetes, name, "settings.kubernetes." + name);
      values.forEach(table::put);
    }
  }

  private static ObjectNode table(ObjectNode parent, String name, String path) {
    JsonNode existing = parent.get(name);
    if (existing == null) {
      return parent.putObject(name);
    }
    if (!existing.isObject()) {
      throw new IllegalArgumentException("Bottlerocket userData: " + path + " must be a table, not " + existing.getNodeType());
    }
    return (ObjectNode) existing;
  }
}

package dev.farrier.activities.cloud.aws.userdata;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * AL2023: a MIME multi-part document whose last part is nodeadm's {@code NodeConfig} (cluster, and a kubelet config
 * with max pods, kube/system reserved, eviction thresholds, clusterDNS and registerWithTaints, and
 * {@code --node-labels}; under {@code instanceStorePolicy: RAID0}, {@code instance.localStorage.strategy: RAID0}, which
 * has nodeadm build one array of the instance-store disks for kubelet and containerd), written by Jackson YAML. The
 * user's user data comes first, as its own parts (a NodeConfig of theirs is merged by nodeadm, Farrier's last so
 * cluster fields win), as in Karpenter.
 */
final class Al2023UserData implements UserDataFormat {
  static final String NODE_CONFIG_TYPE = "application/node.eks.aws";
  private static final YAMLMapper YAML = new YAMLMapper(YAMLFactory.builder().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).build());

  /** nodeadm's {@code NodeConfig} ({@code node.eks.aws/v1alpha1}), only the fields Farrier sets. */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  record NodeConfig(String apiVersion, String kind, Spec spec) {}

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  record Spec(Cluster cluster, Instance instance, Kubelet kubelet) {}

  record Cluster(String name, String apiServerEndpoint, String certificateAuthority, String cidr) {}

  record Instance(LocalStorage localStorage) {}

  record LocalStorage(String strategy) {}

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  record Kubelet(KubeletConfig config, List<String> flags) {}

  /** The KubeletConfiguration fields Farrier sets (nodeadm merges them over the AMI's own). */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  record KubeletConfig(Long maxPods, List<String> clusterDNS, List<RegisterTaint> registerWithTaints, Map<String, String> kubeReserved,
      Map<String, String> systemReserved, Map<String, String> evictionHard, Map<String, String> evictionSoft,
      Map<String, String> evictionSoftGracePeriod, Integer evictionMaxPodGracePeriod, Integer imageGCHighThresholdPercent,
      Integer imageGCLowThresholdPercent, Boolean cpuCFSQuota) {}

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  record RegisterTaint(String key, String value, String effect) {}

  @Override
  public String render(NodeBootstrap node) {
    List<MimeMultipart.Part> parts = new ArrayList<>(userParts(node.userData()));
    parts.add(new MimeMultipart.Part(NODE_CONFIG_TYPE, nodeConfig(node)));
    return MimeMultipart.render(parts);
  }

  private static List<MimeMultipart.Part> userParts(String userData) {
    if (userData == null || userData.isBlank()) {
      return List.of();
    }
    if (MimeMultipart.isMultipart(userData)) {
      return MimeMultipart.parse(userData);
    }
    String type = userData.startsWith("#!") ? "text/x-shellscript; charset=\"us-ascii\"" : NODE_CONFIG_TYPE;
    return List.of(new MimeMultipart.Part(type, userData));
  }

  static String nodeConfig(NodeBootstrap node) {
    KubeletValues k = node.kubeletValues();
    List<RegisterTaint> taints = node.taints().stream()
        .map(t -> new RegisterTaint(t.key(), t.value() == null || t.value().isEmpty() ? null : t.value(), t.effect())).toList();
    KubeletConfig config = new KubeletConfig(k.maxPods(), k.clusterDns(), taints, k.kubeReserved(), k.systemReserved(), k.evictionHard(),
        k.evictionSoft(), k.evictionSoftGracePeriod(), k.evictionMaxPodGracePeriod(), k.imageGCHighThresholdPercent(),
        k.imageGCLowThresholdPercent(), k.cpuCFSQuota());
    List<String> flags = node.labels().isEmpty() ? List.of() : List.of("--node-labels=" + labels(node.labels()));
    NodeConfig nodeConfig = new NodeConfig("node.eks.aws/v1alpha1", "NodeConfig", new Spec(
        new Cluster(node.clusterName(), node.apiServerEndpoint(), node.caBundle(), node.serviceCidr()),
        node.instanceStoreRaid0() ? new Instance(new LocalStorage("RAID0")) : null, new Kubelet(config, flags)));
    try {
      return YAML.writeValueAsString(nodeConfig);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a NodeConfig of strings and numbers is always writable", e);
    }
  }

  static String labels(Map<String, String> labels) {
    return labels.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
  }
}

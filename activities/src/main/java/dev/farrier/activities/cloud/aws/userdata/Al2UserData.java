package dev.farrier.activities.cloud.aws.userdata;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * AL2: a MIME multi-part document that runs the user's script first and then {@code /etc/eks/bootstrap.sh} with the
 * cluster's endpoint, CA and service CIDR, and kubelet's labels, taints, max pods, reserved resources and eviction
 * settings in {@code --kubelet-extra-args}, and {@code --local-disks raid0} under {@code instanceStorePolicy: RAID0}
 * (bootstrap.sh then makes the instance-store disks one array for kubelet and containerd), as Karpenter's AL2 family
 * does.
 */
final class Al2UserData implements UserDataFormat {
  private static final String SHELL = "text/x-shellscript; charset=\"us-ascii\"";

  @Override
  public String render(NodeBootstrap node) {
    List<MimeMultipart.Part> parts = new ArrayList<>();
    String userData = node.userData();
    if (userData != null && !userData.isBlank()) {
      parts.addAll(MimeMultipart.isMultipart(userData) ? MimeMultipart.parse(userData) : List.of(new MimeMultipart.Part(SHELL, userData)));
    }
    parts.add(new MimeMultipart.Part(SHELL, script(node)));
    return MimeMultipart.render(parts);
  }

  static String script(NodeBootstrap node) {
    KubeletValues kubelet = node.kubeletValues();
    StringBuilder s = new StringBuilder();
    s.append("#!/bin/bash -xe\n");
    s.append("exec > >(tee /var/log/user-data.log|logger -t user-data -s 2>/dev/console) 2>&1\n");
    s.append("/etc/eks/bootstrap.sh ").append(shell(node.clusterName()))
        .append(" --apiserver-endpoint ").append(shell(node.apiServerEndpoint()))
        .append(" --b64-cluster-ca ").append(shell(node.caBundle()))
        .append(" --service-ipv4-cidr ").append(shell(node.serviceCidr()));
    if (!kubelet.clusterDns().isEmpty()) {
      s.append(" --dns-cluster-ip ").append(shell(kubelet.clusterDns().getFirst()));
    }
    if (kubelet.maxPods() != null) {
      s.append(" --use-max-pods false");
    }
    s.append(" --kubelet-extra-args ").append(shell(kubeletArgs(node, kubelet)));
    if (node.instanceStoreRaid0()) {
      s.append(" --local-disks raid0");
    }
    s.append('\n');
    return s.toString();
  }

  static String kubeletArgs(NodeBootstrap node, KubeletValues kubelet) {
    List<String> args = new ArrayList<>();
    if (!node.labels().isEmpty()) {
      args.add("--node-labels=" + Al2023UserData.labels(node.labels()));
    }
    if (!node.taints().isEmpty()) {
      args.add("--register-with-taints=" + node.taints().stream().map(NodeBootstrap::taintFlag).collect(Collectors.joining(",")));
    }
    if (kubelet.maxPods() != null) {
      args.add("--max-pods=" + kubelet.maxPods());
    }
    map(args, "--kube-reserved=", kubelet.kubeReserved(), "=");
    map(args, "--system-reserved=", kubelet.systemReserved(), "=");
    map(args, "--eviction-hard=", kubelet.evictionHard(), "<");
    map(args, "--eviction-soft=", kubelet.evictionSoft(), "<");
    map(args, "--eviction-soft-grace-period=", kubelet.evictionSoftGracePeriod(), "=");
    value(args, "--eviction-max-pod-grace-period=", kubelet.evictionMaxPodGracePeriod());
    value(args, "--image-gc-high-threshold=", kubelet.imageGCHighThresholdPercent());
    value(args, "--image-gc-low-threshold=", kubelet.imageGCLowThresholdPercent());
    value(args, "--cpu-cfs-quota=", kubelet.cpuCFSQuota());
    return String.join(" ", args);
  }

  /** {@code flag key<sep>value,...}, kubelet's form for maps ({@code <} for eviction signals), when not empty. */
  private static void map(List<String> args, String flag, Map<String, String> values, String separator) {
    if (!values.isEmpty()) {
      args.add(flag + values.entrySet().stream().map(e -> e.getKey() + separator + e.getValue()).collect(Collectors.joining(",")));
    }
  }

  private static void value(List<String> args, String flag, Object value) {
    if (value != null) {
      args.add(flag + value);
    }
  }

  /** Single-quoted for bash; a single quote inside closes, escapes and reopens. */
  private static String shell(String value) {
    return "'" + String.valueOf(value).replace("'", "'\\''") + "'";
  }
}

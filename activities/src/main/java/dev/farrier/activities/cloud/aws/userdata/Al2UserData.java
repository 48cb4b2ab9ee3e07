package dev.farrier.activities.cloud.aws.userdata;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * AL2: a MIME multi-part document that runs the user's script first and then {@code /etc/eks/bootstrap.sh} with the
 * cluster's endpoint, CA and service CIDR, and kubelet's labels, taints and max pods in {@code --kubelet-extra-args},
 * as Karpenter's AL2 family does.
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
    StringBuilder s = new StringBuilder();
    s.append("#!/bin/bash -xe\n");
    s.append("exec > >(tee /var/log/user-data.log|logger -t user-data -s 2>/dev/console) 2>&1\n");
    s.append("/etc/eks/bootstrap.sh ").append(shell(node.clusterName()))
        .append(" --apiserver-endpoint ").append(shell(node.apiServerEndpoint()))
        .append(" --b64-cluster-ca ").append(shell(node.caBundle()))
        .append(" --service-ipv4-cidr ").append(shell(node.serviceCidr()));
    if (!node.clusterDns().isEmpty()) {
      s.append(" --dns-cluster-ip ").append(shell(node.clusterDns().getFirst()));
    }
    if (node.maxPods() != null) {
      s.append(" --use-max-pods false");
    }
    s.append(" --kubelet-extra-args ").append(shell(kubeletArgs(node))).append('\n');
    return s.toString();
  }

  static String kubeletArgs(NodeBootstrap node) {
    List<String> args = new ArrayList<>();
    if (!node.labels().isEmpty()) {
      args.add("--node-labels=" + Al2023UserData.labels(node.labels()));
    }
    if (!node.taints().isEmpty()) {
      args.add("--register-with-taints=" + node.taints().stream().map(NodeBootstrap::taintFlag).collect(Collectors.joining(",")));
    }
    if (node.maxPods() != null) {
      args.add("--max-pods=" + node.maxPods());
    }
    return String.join(" ", args);
  }

  /** Single-quoted for bash; a single quote inside closes, escapes and reopens. */
  private static String shell(String value) {
    return "'" + String.valueOf(value).replace("'", "'\\''") + "'";
  }
}

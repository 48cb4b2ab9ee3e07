package dev.farrier.activities.cloud.aws.userdata;

import dev.farrier.workflows.model.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * AL2023: a MIME multi-part document whose last part is nodeadm's {@code NodeConfig} (cluster, kubelet config with
 * maxPods, clusterDNS and registerWithTaints, and {@code --node-labels}). The user's user data comes first, as its
 * own parts (a NodeConfig of theirs is merged by nodeadm, Farrier's last so cluster fields win), as in Karpenter.
 */
final class Al2023UserData implements UserDataFormat {
  static final String NODE_CONFIG_TYPE = "application/node.eks.aws";

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
    StringBuilder y = new StringBuilder();
    y.append("apiVersion: node.eks.aws/v1alpha1\n");
    y.append("kind: NodeConfig\n");
    y.append("spec:\n");
    y.append("  cluster:\n");
    y.append("    name: ").append(quote(node.clusterName())).append('\n');
    y.append("    apiServerEndpoint: ").append(quote(node.apiServerEndpoint())).append('\n');
    y.append("    certificateAuthority: ").append(quote(node.caBundle())).append('\n');
    y.append("    cidr: ").append(quote(node.serviceCidr())).append('\n');
    y.append("  kubelet:\n");
    y.append("    config:\n");
    if (node.maxPods() != null) {
      y.append("      maxPods: ").append(node.maxPods()).append('\n');
    }
    if (!node.clusterDns().isEmpty()) {
      y.append("      clusterDNS:\n");
      node.clusterDns().forEach(d -> y.append("        - ").append(quote(d)).append('\n'));
    }
    if (!node.taints().isEmpty()) {
      y.append("      registerWithTaints:\n");
      for (Taint t : node.taints()) {
        y.append("        - key: ").append(quote(t.key())).append('\n');
        if (t.value() != null && !t.value().isEmpty()) {
          y.append("          value: ").append(quote(t.value())).append('\n');
        }
        y.append("          effect: ").append(quote(t.effect())).append('\n');
      }
    }
    if (!node.labels().isEmpty()) {
      y.append("    flags:\n");
      y.append("      - ").append(quote("--node-labels=" + labels(node.labels()))).append('\n');
    }
    return y.toString();
  }

  static String labels(Map<String, String> labels) {
    return labels.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
  }

  /** A YAML double-quoted scalar; every value is quoted so no label or endpoint is ever read as another type. */
  private static String quote(String value) {
    return "\"" + String.valueOf(value).replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}

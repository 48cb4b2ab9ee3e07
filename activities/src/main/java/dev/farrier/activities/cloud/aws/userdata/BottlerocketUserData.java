package dev.farrier.activities.cloud.aws.userdata;

import dev.farrier.workflows.model.Taint;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Bottlerocket: TOML settings. The user's TOML is read table by table and Farrier's {@code settings.kubernetes}
 * values (cluster name, API server, CA, max pods, cluster DNS) replace the user's; node labels and taints are merged,
 * Farrier's winning per key, as Karpenter does.
 *
 * <p>Only the TOML Bottlerocket user data is written in is understood: {@code [table]} headers and one-line
 * {@code key = value} pairs. Anything else (arrays of tables, multi-line values) is rejected with a clear message
 * rather than merged wrongly.
 */
final class BottlerocketUserData implements UserDataFormat {
  static final String KUBERNETES = "settings.kubernetes";
  static final String LABELS = "settings.kubernetes.node-labels";
  static final String TAINTS = "settings.kubernetes.node-taints";

  @Override
  public String render(NodeBootstrap node) {
    Map<String, Map<String, String>> tables = parse(node.userData());
    Map<String, String> kubernetes = tables.computeIfAbsent(KUBERNETES, t -> new LinkedHashMap<>());
    kubernetes.put("cluster-name", string(node.clusterName()));
    kubernetes.put("api-server", string(node.apiServerEndpoint()));
    kubernetes.put("cluster-certificate", string(node.caBundle()));
    if (node.maxPods() != null) {
      kubernetes.put("max-pods", String.valueOf(node.maxPods()));
    }
    if (!node.clusterDns().isEmpty()) {
      kubernetes.put("cluster-dns-ip", string(node.clusterDns().getFirst()));
    }
    if (!node.labels().isEmpty()) {
      Map<String, String> labels = tables.computeIfAbsent(LABELS, t -> new LinkedHashMap<>());
      node.labels().forEach((k, v) -> labels.put(string(k), string(v)));
    }
    if (!node.taints().isEmpty()) {
      Map<String, String> taints = tables.computeIfAbsent(TAINTS, t -> new LinkedHashMap<>());
      Map<String, List<Taint>> byKey = node.taints().stream().collect(Collectors.groupingBy(Taint::key, TreeMap::new, Collectors.toList()));
      byKey.forEach((key, list) -> taints.put(string(key), list.stream()
          .map(t -> string((t.value() == null ? "" : t.value()) + ":" + t.effect())).collect(Collectors.joining(", ", "[", "]"))));
    }
    StringBuilder out = new StringBuilder();
    Map<String, String> root = tables.remove("");
    if (root != null) {
      root.forEach((k, v) -> out.append(k).append(" = ").append(v).append('\n'));
      out.append('\n');
    }
    tables.forEach((table, values) -> {
      out.append('[').append(table).append("]\n");
      values.forEach((k, v) -> out.append(k).append(" = ").append(v).append('\n'));
      out.append('\n');
    });
    return out.toString().stripTrailing() + "\n";
  }

  /** Table name ("" for the root) -> key -> raw value, in document order; keys are stored as written. */
  static Map<String, Map<String, String>> parse(String toml) {
    Map<String, Map<String, String>> tables = new LinkedHashMap<>();
    if (toml == null || toml.isBlank()) {
      return tables;
    }
    String table = "";
    int lineNumber = 0;
    for (String raw : toml.split("\n", -1)) {
      lineNumber++;
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (line.startsWith("[[")) {
        throw new IllegalArgumentException("Bottlerocket userData line " + lineNumber + ": arrays of tables are not supported");
      }
      if (line.startsWith("[") && line.endsWith("]")) {
        table = line.substring(1, line.length() - 1).strip();
        tables.computeIfAbsent(table, t -> new LinkedHashMap<>());
        continue;
      }
      int eq = line.indexOf('=');
      if (eq <= 0 || line.endsWith("[") || line.endsWith("=")) {
        throw new IllegalArgumentException("Bottlerocket userData line " + lineNumber + " is not a one-line key = value: " + line);
      }
      tables.computeIfAbsent(table, t -> new LinkedHashMap<>()).put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
    }
    return tables;
  }

  private static String string(String value) {
    return "\"" + String.valueOf(value).replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}

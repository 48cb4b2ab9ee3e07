package dev.farrier.activities.metrics;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** docs/reference/metrics.md, written from {@link MetricCatalog}: what is exported and which of Karpenter's names are not. */
public final class MetricsReference {
  private MetricsReference() {}

  public static String page() {
    var page = new StringBuilder();
    page.append("<!-- Generated from MetricCatalog by MetricsReferenceTest: do not edit; ")
        .append("cp activities/target/metrics.md docs/reference/metrics.md -->\n")
        .append("# Metrics reference\n\n")
        .append("Every metric `GET /metrics` on the worker exports besides the JVM's (`jvm_*`, `process_*`) and the Temporal ")
        .append("SDK's (`temporal_*`). Names under `karpenter_` are Karpenter v1.14.1's, with its label names and its ")
        .append("stability mark; names under `farrier_` are Farrier's own. A histogram or summary also exports ")
        .append("`_count`, `_sum` (and `_bucket` or `quantile`) series, and Micrometer adds a `_max` gauge to each. ")
        .append("See [Metrics](../metrics.md) for how to scrape them.\n\n")
        .append("## Exported\n\n")
        .append("| Name | Type | Labels | Stability | Help |\n|---|---|---|---|---|\n");
    for (MetricDefinition m : MetricCatalog.ALL) {
      page.append("| `").append(m.name()).append("` | ").append(m.type().name().toLowerCase(Locale.ROOT)).append(" | ")
          .append(labels(m.labels()))
          .append(" | ").append(m.stability()).append(" | ").append(cell(m.help())).append(" |\n");
    }
    page.append("\n## Node labels\n\nThe `karpenter_nodes_*` gauges carry, as Karpenter's do, one label per well-known node label (the ")
        .append("value of the node's label, empty when it has none), named by the part after its prefix in snake case, then ")
        .append("`node_name`, `phase`, `managed` (the node carries a NodePool's label) and, on the resource gauges, `resource_type`:\n\n")
        .append("| Label | Node label |\n|---|---|\n");
    for (String key : NodeLabels.WELL_KNOWN) {
      page.append("| `").append(NodeLabels.snake(key.substring(key.indexOf('/') + 1))).append("` | `").append(key).append("` |\n");
    }
    page.append("\n## Karpenter's metrics Farrier does not export\n\n")
        .append("| Name | Stability | Why |\n|---|---|---|\n");
    for (MetricCatalog.NotExported n : MetricCatalog.NOT_EXPORTED) {
      page.append("| `").append(n.name()).append("` | ").append(n.stability()).append(" | ").append(cell(n.why())).append(" |\n");
    }
    return page.toString();
  }

  private static String labels(List<String> labels) {
    if (labels.isEmpty()) {
      return "—";
    }
    if (labels.equals(List.of(NodeLabels.names(true)))) {
      return "[node labels](#node-labels), `resource_type`";
    }
    if (labels.equals(List.of(NodeLabels.names(false)))) {
      return "[node labels](#node-labels)";
    }
    return labels.stream().map(l -> "`" + l + "`").collect(Collectors.joining(", "));
  }

  private static String cell(String text) {
    return text.replace("|", "\\|");
  }
}

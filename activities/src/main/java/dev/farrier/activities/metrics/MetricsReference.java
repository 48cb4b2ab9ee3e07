package dev.farrier.activities.metrics;

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
          .append(m.labels().isEmpty() ? "—" : m.labels().stream().map(l -> "`" + l + "`").collect(Collectors.joining(", ")))
          .append(" | ").append(m.stability()).append(" | ").append(cell(m.help())).append(" |\n");
    }
    page.append("\n## Karpenter's metrics Farrier does not export\n\n")
        .append("| Name | Stability | Why |\n|---|---|---|\n");
    for (MetricCatalog.NotExported n : MetricCatalog.NOT_EXPORTED) {
      page.append("| `").append(n.name()).append("` | ").append(n.stability()).append(" | ").append(cell(n.why())).append(" |\n");
    }
    return page.toString();
  }

  private static String cell(String text) {
    return text.replace("|", "\\|");
  }
}

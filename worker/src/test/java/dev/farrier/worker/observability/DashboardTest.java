package dev.farrier.worker.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.farrier.activities.metrics.MetricCatalog;
import dev.farrier.activities.metrics.MetricDefinition;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * deploy/grafana/farrier-dashboard.json queries only metrics the worker exports ({@link MetricCatalog}), with labels
 * they have, and shows Farrier's own view (replacements by phase, blocked workflows, rollouts).
 */
class DashboardTest {
  private static final Path DASHBOARD = Path.of("..").toAbsolutePath().normalize().resolve("deploy/grafana/farrier-dashboard.json");
  private static final Map<String, MetricDefinition> EXPORTED = MetricCatalog.ALL.stream()
      .collect(Collectors.toMap(MetricDefinition::name, Function.identity()));

  @Test
  void everyQueriedMetricIsExported() throws Exception {
    List<String> exprs = new ArrayList<>();
    new ObjectMapper().readTree(DASHBOARD.toFile()).findValues("expr").forEach(e -> exprs.add(e.asText()));
    assertFalse(exprs.isEmpty(), "the dashboard has queries");
    Set<String> queried = new TreeSet<>();
    for (String expr : exprs) {
      for (String name : PromQlNames.of(expr)) {
        String metric = exported(name);
        assertTrue(EXPORTED.containsKey(metric), name + " in `" + expr + "` is not exported; exported: " + EXPORTED.keySet());
        queried.add(metric);
      }
      for (var selector : PromQlNames.labels(expr).entrySet()) {
        for (String label : selector.getValue()) {
          var labels = EXPORTED.get(exported(selector.getKey())).labels();
          assertTrue(labels.contains(label) || label.equals("le") || label.equals("quantile"),
              selector.getKey() + " has no label " + label + " (" + labels + ") in `" + expr + "`");
        }
      }
    }
    assertTrue(queried.containsAll(List.of("farrier_replacements", "farrier_blocked_workflows", "farrier_rollouts")), queried.toString());
  }

  @Test
  void panelsHaveUniqueIdsAndTheDatasourceVariable() throws Exception {
    JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
    List<Integer> ids = new ArrayList<>();
    dashboard.get("panels").forEach(p -> ids.add(p.get("id").asInt()));
    assertEquals(ids.size(), Set.copyOf(ids).size(), "panel ids " + ids);
    assertEquals("datasource", dashboard.get("templating").get("list").get(0).get("name").asText());
  }

  /** A histogram's or summary's series name back to its family ({@code _bucket}, {@code _count}, {@code _sum}). */
  private static String exported(String series) {
    for (String suffix : List.of("_bucket", "_count", "_sum")) {
      String family = series.endsWith(suffix) ? series.substring(0, series.length() - suffix.length()) : null;
      if (family != null && EXPORTED.containsKey(family) && EXPORTED.get(family).type() != MetricDefinition.Type.COUNTER
          && EXPORTED.get(family).type() != MetricDefinition.Type.GAUGE) {
        return family;
      }
    }
    return series;
  }
}

package dev.farrier.activities.metrics;

import io.micrometer.core.instrument.MultiGauge;
import java.util.List;

/**
 * A gauge family whose label values come and go (NodePools, phases): each {@link #set} replaces every row, so a
 * NodePool deleted since the last one no longer shows.
 */
public final class LabelledGauge {
  private final MetricDefinition definition;
  private final MultiGauge gauge;

  LabelledGauge(MetricDefinition definition, MultiGauge gauge) {
    this.definition = definition;
    this.gauge = gauge;
  }

  /** One row: label values in the definition's label order, and the value. */
  public record Row(List<String> labelValues, double value) {
    public Row {
      labelValues = labelValues.stream().map(v -> v == null ? "" : v).toList();
    }
  }

  public void set(List<Row> rows) {
    gauge.register(rows.stream()
        .map(r -> MultiGauge.Row.of(definition.tags(r.labelValues().toArray(String[]::new)), r.value()))
        .toList(), true);
  }
}

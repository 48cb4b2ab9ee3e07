package dev.farrier.activities.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One metric as {@code /metrics} exports it: its Prometheus name (a counter's with {@code _total}), type, label names
 * in order, help and where its name comes from. Every meter Farrier records is built here, so the label names cannot
 * differ from the definition, and {@link MetricCatalog} lists them all for the reference page and the tests.
 */
public record MetricDefinition(String name, Type type, List<String> labels, String help, Stability stability, List<Double> buckets) {
  public enum Type { COUNTER, GAUGE, HISTOGRAM, SUMMARY }

  /** Karpenter's stability mark for a name Farrier shares with it, or {@link #FARRIER} for Farrier's own. */
  public enum Stability { STABLE, BETA, ALPHA, FARRIER }

  /** Suffixes the Prometheus Java client keeps for itself; a name ending so is registered under another name. */
  private static final List<String> RESERVED = List.of("_created", "_info");
  /** What a reserved suffix gets appended while registered; {@link ExportedNames} takes it off the scrape again. */
  static final String RESERVED_MARK = "_as_exported";

  /** Karpenter's duration buckets ({@code metrics.DurationBuckets()}), in seconds. */
  private static final double[] DURATION_BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7,
      0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60, 120, 150, 300, 450, 600};
  /** Karpenter's summary quantiles ({@code metrics.SummaryObjectives()}). */
  private static final double[] QUANTILES = {0.0, 0.5, 0.9, 0.99, 1.0};

  /**
   * @param buckets a histogram's upper bounds when it is not a duration (Karpenter's consolidation score); empty for a
   *     duration, whose buckets are Karpenter's duration buckets, and for every other type
   */
  public MetricDefinition {
    labels = List.copyOf(labels);
    buckets = List.copyOf(buckets);
    if (type == Type.COUNTER != name.endsWith("_total")) {
      throw new IllegalArgumentException(name + ": a counter's name, and only a counter's, ends with _total");
    }
    if (!buckets.isEmpty() && type != Type.HISTOGRAM) {
      throw new IllegalArgumentException(name + ": only a histogram has buckets of its own");
    }
    if ((type == Type.HISTOGRAM || type == Type.SUMMARY) && buckets.isEmpty() && !name.endsWith("_seconds")) {
      throw new IllegalArgumentException(name + ": a histogram or summary without buckets of its own is a duration in seconds");
    }
  }

  static MetricDefinition counter(String name, Stability stability, String help, String... labels) {
    return new MetricDefinition(name, Type.COUNTER, Arrays.asList(labels), help, stability, List.of());
  }

  static MetricDefinition gauge(String name, Stability stability, String help, String... labels) {
    return new MetricDefinition(name, Type.GAUGE, Arrays.asList(labels), help, stability, List.of());
  }

  static MetricDefinition histogram(String name, Stability stability, String help, String... labels) {
    return new MetricDefinition(name, Type.HISTOGRAM, Arrays.asList(labels), help, stability, List.of());
  }

  /** A histogram of something other than a duration, with its own upper bounds. */
  static MetricDefinition histogram(String name, Stability stability, String help, List<Double> buckets, String... labels) {
    if (buckets.isEmpty()) {
      throw new IllegalArgumentException(name + ": a histogram of its own buckets names them");
    }
    return new MetricDefinition(name, Type.HISTOGRAM, Arrays.asList(labels), help, stability, buckets);
  }

  static MetricDefinition summary(String name, Stability stability, String help, String... labels) {
    return new MetricDefinition(name, Type.SUMMARY, Arrays.asList(labels), help, stability, List.of());
  }

  /** The name given to Micrometer: without a counter's {@code _total} (its naming convention adds it), reserved suffixes marked. */
  public String registeredName() {
    String base = type == Type.COUNTER ? name.substring(0, name.length() - "_total".length()) : name;
    return RESERVED.stream().anyMatch(base::endsWith) ? base + RESERVED_MARK : base;
  }

  /** The counter with these label values, in {@link #labels()} order. */
  public Counter counter(MeterRegistry meters, String... values) {
    require(Type.COUNTER);
    return Counter.builder(registeredName()).description(help).tags(tags(values)).register(meters);
  }

  /** The histogram (Karpenter's buckets) or summary (Karpenter's quantiles) of a duration with these label values. */
  public Timer timer(MeterRegistry meters, String... values) {
    if (type != Type.HISTOGRAM && type != Type.SUMMARY || !buckets.isEmpty()) {
      throw new IllegalStateException(name + " is a " + type + (buckets.isEmpty() ? "" : " of its own buckets, not a duration"));
    }
    var builder = Timer.builder(registeredName()).description(help).tags(tags(values));
    if (type == Type.HISTOGRAM) {
      builder.serviceLevelObjectives(Arrays.stream(DURATION_BUCKETS).mapToObj(s -> Duration.ofNanos((long) (s * 1e9))).toArray(Duration[]::new));
    } else {
      builder.publishPercentiles(QUANTILES);
    }
    return builder.register(meters);
  }

  /** A gauge reading {@code value} of {@code state} at every scrape, with these label values. */
  public <T> Gauge gauge(MeterRegistry meters, T state, ToDoubleFunction<T> value, String... values) {
    require(Type.GAUGE);
    return Gauge.builder(registeredName(), state, value).description(help).tags(tags(values)).strongReference(true).register(meters);
  }

  /** A gauge whose label values come and go: rows set with {@link LabelledGauge#set}. */
  public LabelledGauge labelledGauge(MeterRegistry meters) {
    require(Type.GAUGE);
    return new LabelledGauge(this, MultiGauge.builder(registeredName()).description(help).register(meters));
  }

  Tags tags(String... values) {
    if (values.length != labels.size()) {
      throw new IllegalArgumentException(name + " has labels " + labels + ", given " + values.length + " values");
    }
    Tags tags = Tags.empty();
    for (int i = 0; i < values.length; i++) {
      tags = tags.and(labels.get(i), values[i] == null ? "" : values[i]);
    }
    return tags;
  }

  private void require(Type expected) {
    if (type != expected) {
      throw new IllegalStateException(name + " is a " + type + ", not a " + expected);
    }
  }
}

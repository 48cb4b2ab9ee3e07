package dev.farrier.worker.observability;

import com.uber.m3.tally.RootScopeBuilder;
import com.uber.m3.tally.Scope;
import io.micrometer.core.instrument.MeterRegistry;
import io.temporal.common.reporter.MicrometerClientStatsReporter;
import java.time.Duration;

/** The Temporal SDK's metrics ({@code temporal_...}: polls, task latencies, ...) reported into the worker's registry. */
public final class TemporalMetrics {
  /** Often enough for a Prometheus scrape every 15 to 30 seconds to see fresh values. */
  public static final Duration REPORT_EVERY = Duration.ofSeconds(10);

  private TemporalMetrics() {}

  /** For {@code WorkflowServiceStubsOptions.setMetricsScope}. */
  public static Scope scope(MeterRegistry meters) {
    return scope(meters, REPORT_EVERY);
  }

  static Scope scope(MeterRegistry meters, Duration reportEvery) {
    return new RootScopeBuilder().reporter(new MicrometerClientStatsReporter(meters))
        .reportEvery(com.uber.m3.util.Duration.ofMillis(reportEvery.toMillis()));
  }
}

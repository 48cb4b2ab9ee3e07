package dev.farrier.worker.observability;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * The JVM's own meters on {@code /metrics}: heap and non-heap by pool ({@code jvm_memory_used_bytes}), the live data
 * after the last major collection ({@code jvm_gc_live_data_size_bytes}), pauses, classes loaded, threads, CPU and
 * uptime; what a platform team sizes the worker's memory request and limit from, and what {@code make bench} reads.
 */
public final class JvmMeters implements AutoCloseable {
  private final JvmGcMetrics gc = new JvmGcMetrics();

  public JvmMeters(MeterRegistry registry) {
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
  }

  /** Stops listening to the garbage collector's notifications. */
  @Override
  public void close() {
    gc.close();
  }
}

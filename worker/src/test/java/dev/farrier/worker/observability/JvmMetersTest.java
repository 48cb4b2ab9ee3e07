package dev.farrier.worker.observability;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

class JvmMetersTest {
  @Test
  void theScrapeHasTheHeapTheLiveDataClassesAndThreads() {
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (var meters = new JvmMeters(registry)) {
      String scrape = registry.scrape();
      for (String name : new String[] {"jvm_memory_used_bytes{area=\"heap\"", "jvm_memory_max_bytes{area=\"nonheap\"",
          "jvm_gc_live_data_size_bytes", "jvm_classes_loaded_classes", "jvm_threads_live_threads", "process_cpu_usage",
          "process_uptime_seconds"}) {
        assertTrue(scrape.contains(name), "scraped: " + name);
      }
    }
  }
}

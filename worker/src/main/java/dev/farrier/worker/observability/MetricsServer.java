package dev.farrier.worker.observability;

import dev.farrier.activities.metrics.ExportedNames;
import dev.farrier.activities.metrics.MetricsRefresh;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /metrics} on {@code farrier.metrics.port}: the registry in Prometheus text format, its scrape-time gauges
 * refreshed first.
 */
@Singleton
public class MetricsServer implements AutoCloseable {
  static final String PATH = "/metrics";
  /** Prometheus text exposition format 0.0.4, what {@link PrometheusMeterRegistry#scrape()} writes. */
  private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private static final Logger log = LoggerFactory.getLogger(MetricsServer.class);

  private final PlainHttpServer server;

  public MetricsServer(PrometheusMeterRegistry registry, List<MetricsRefresh> refreshes, @Value("${farrier.metrics.port:8080}") int port) {
    this.server = new PlainHttpServer("metrics", port,
        Map.of(PATH, () -> new PlainHttpServer.Response(200, CONTENT_TYPE, scrape(registry, refreshes))));
  }

  /** The refreshed gauges and every meter, under the names they are exported as ({@link ExportedNames}). */
  static String scrape(PrometheusMeterRegistry registry, List<MetricsRefresh> refreshes) {
    for (MetricsRefresh refresh : refreshes) {
      try {
        refresh.refresh();
      } catch (RuntimeException e) {
        log.warn("metrics refresh failed, the last values stay refresh={} cause={}", refresh.getClass().getSimpleName(), e.toString());
      }
    }
    return ExportedNames.restore(registry.scrape());
  }

  public void start() {
    server.start();
  }

  /** The bound port (tests bind port 0). */
  public int port() {
    return server.port();
  }

  @Override
  public void close() {
    server.close();
  }
}

package dev.farrier.worker.observability;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.util.Map;

/** {@code GET /metrics} on {@code farrier.metrics.port}: the registry in Prometheus text format. */
@Singleton
public class MetricsServer implements AutoCloseable {
  static final String PATH = "/metrics";
  /** Prometheus text exposition format 0.0.4, what {@link PrometheusMeterRegistry#scrape()} writes. */
  private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final PlainHttpServer server;

  public MetricsServer(PrometheusMeterRegistry registry, @Value("${farrier.metrics.port:8080}") int port) {
    this.server = new PlainHttpServer("metrics", port,
        Map.of(PATH, () -> new PlainHttpServer.Response(200, CONTENT_TYPE, registry.scrape())));
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

package dev.farrier.worker.observability;

import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The probes on {@code farrier.health.port}: {@code GET /healthz} (liveness) answers 200 until the worker starts
 * shutting down, then 503; {@code GET /readyz} answers 200 while Temporal and the Kubernetes API server both answered
 * the last {@link Readiness} round (every {@value #CHECK_PERIOD_SECONDS} s), 503 naming what is down otherwise.
 */
@Singleton
public class HealthServer implements AutoCloseable {
  static final long CHECK_PERIOD_SECONDS = 5;

  private final Readiness readiness;
  private final PlainHttpServer server;
  private final ScheduledExecutorService checker = Executors.newSingleThreadScheduledExecutor(r -> {
    var t = new Thread(r, "farrier-readiness");
    t.setDaemon(true);
    return t;
  });
  private volatile boolean shuttingDown;

  public HealthServer(Readiness readiness, @Value("${farrier.health.port:8081}") int port) {
    this.readiness = readiness;
    this.server = new PlainHttpServer("health", port, Map.of(
        "/healthz", this::liveness,
        "/readyz", this::readiness));
  }

  private PlainHttpServer.Response liveness() {
    return shuttingDown ? PlainHttpServer.Response.text(503, "shutting down\n") : PlainHttpServer.Response.text(200, "ok\n");
  }

  private PlainHttpServer.Response readiness() {
    if (shuttingDown) {
      return PlainHttpServer.Response.text(503, "shutting down\n");
    }
    var report = readiness.current();
    return PlainHttpServer.Response.text(report.ready() ? 200 : 503, report.text());
  }

  public void start() {
    server.start();
    checker.scheduleWithFixedDelay(readiness::refresh, 0, CHECK_PERIOD_SECONDS, TimeUnit.SECONDS);
  }

  /** From now on both probes answer 503: the worker is stopping. */
  public void shuttingDown() {
    shuttingDown = true;
  }

  public int port() {
    return server.port();
  }

  @Override
  public void close() {
    shuttingDown = true;
    checker.shutdownNow();
    server.close();
  }
}

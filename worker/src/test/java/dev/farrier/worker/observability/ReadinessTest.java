package dev.farrier.worker.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Readiness and the probes with fake dependencies: what is reported down, and liveness once shutdown starts. */
class ReadinessTest {
  private record Fake(String name, RuntimeException failure) implements DependencyCheck {
    @Override
    public void check() {
      if (failure != null) {
        throw failure;
      }
    }
  }

  /** A dependency that never answers and ignores its own deadline. */
  private record Hung(String name, CountDownLatch never) implements DependencyCheck {
    @Override
    public void check() throws InterruptedException {
      never.await();
    }
  }

  @Test
  void notReadyUntilCheckedThenReadyWhenAllAnswer() {
    try (var readiness = new Readiness(List.of(new Fake("temporal", null), new Fake("kubernetes", null)))) {
      assertFalse(readiness.current().ready(), "nothing checked yet");
      assertTrue(readiness.refresh().ready());
      assertEquals("ok\n", readiness.current().text());
    }
  }

  @Test
  void namesEveryDependencyThatIsDownAndWhy() {
    try (var readiness = new Readiness(List.of(new Fake("temporal", new IllegalStateException("UNAVAILABLE: connection refused")),
        new Fake("kubernetes", null), new Hung("slow", new CountDownLatch(1))))) {
      var report = readiness.refresh();
      assertFalse(report.ready());
      assertEquals("temporal is down: UNAVAILABLE: connection refused\nslow is down: no answer within "
          + Readiness.CHECK_BOUND_MILLIS + " ms\n", report.text());
    }
  }

  @Test
  void probesAnswer503OnceShutdownStarts() throws Exception {
    try (var readiness = new Readiness(List.of(new Fake("temporal", null)));
        var server = new HealthServer(readiness, 0)) {
      server.start();
      readiness.refresh();
      assertEquals(200, status(server.port(), "/healthz"));
      assertEquals(200, status(server.port(), "/readyz"));
      server.shuttingDown();
      assertEquals(503, status(server.port(), "/healthz"));
      assertEquals(503, status(server.port(), "/readyz"));
    }
  }

  private static int status(int port, String path) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}

package dev.farrier.worker.observability;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A small GET-only HTTP server for probes and scrapes on the JDK's {@code com.sun.net.httpserver} (as Micrometer's
 * Prometheus documentation shows). Chosen over Micronaut's HTTP server: the worker has no other HTTP endpoint, and
 * Netty plus Micronaut's router and codecs would be a second runtime in the image for three plain-text paths.
 */
final class PlainHttpServer implements AutoCloseable {
  /** A response: status, content type and body. */
  record Response(int status, String contentType, String body) {
    static Response text(int status, String body) {
      return new Response(status, "text/plain; charset=utf-8", body);
    }
  }

  @FunctionalInterface
  interface Route {
    Response get();
  }

  private final HttpServer server;
  private final ExecutorService executor;

  /** Binds {@code port} on every interface (0: a free one); {@link #start} serves. */
  PlainHttpServer(String name, int port, Map<String, Route> routes) {
    try {
      server = HttpServer.create(new InetSocketAddress(port), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on port " + port + " for " + name, e);
    }
    routes.forEach((path, route) -> server.createContext(path, handler(route)));
    executor = Executors.newSingleThreadExecutor(r -> {
      var t = new Thread(r, "farrier-" + name);
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
  }

  private static HttpHandler handler(Route route) {
    return exchange -> {
      try (exchange) {
        Response response = "GET".equals(exchange.getRequestMethod()) || "HEAD".equals(exchange.getRequestMethod())
            ? route.get() : Response.text(405, "GET only\n");
        send(exchange, response);
      }
    };
  }

  private static void send(HttpExchange exchange, Response response) throws IOException {
    byte[] body = response.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", response.contentType());
    boolean head = "HEAD".equals(exchange.getRequestMethod());
    exchange.sendResponseHeaders(response.status(), head ? -1 : body.length);
    if (!head) {
      exchange.getResponseBody().write(body);
    }
  }

  void start() {
    server.start();
  }

  int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}

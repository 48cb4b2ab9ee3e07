package dev.farrier.activities.metrics;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A refresh that reads a remote service (Temporal, the cloud), bounded so a scrape never waits on it longer than
 * {@code wait}: the read runs on its own thread, one at a time; a scrape that finds one running waits for that one
 * instead of starting another, and when the bound passes it throws (the scrape then shows the last values) while the
 * read goes on to set them for a later scrape.
 */
public final class BoundedRefresh implements MetricsRefresh, AutoCloseable {
  private final Runnable read;
  private final Duration wait;
  private final ExecutorService thread;
  private CompletableFuture<Void> inFlight;

  public BoundedRefresh(String name, Runnable read, Duration wait) {
    this.read = read;
    this.wait = wait;
    this.thread = Executors.newSingleThreadExecutor(Thread.ofVirtual().name(name).factory());
  }

  @Override
  public void refresh() {
    CompletableFuture<Void> current;
    synchronized (this) {
      if (inFlight == null || inFlight.isDone()) {
        inFlight = CompletableFuture.runAsync(read, thread);
      }
      current = inFlight;
    }
    try {
      current.get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException("still reading after " + wait.toMillis() + " ms, the last values stay");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}

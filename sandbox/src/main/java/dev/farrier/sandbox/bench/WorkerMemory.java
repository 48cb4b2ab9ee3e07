package dev.farrier.sandbox.bench;

import dev.farrier.sandbox.WorkerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A worker JVM's memory, seen from outside as a platform team sees its pod: the resident set from {@code /proc} (what
 * the memory limit counts), and from its {@code /metrics} the heap in use and committed, metaspace, classes loaded and
 * threads; {@link #liveHeap()} first asks the JVM for a full collection ({@code jcmd GC.run}) so the heap in use is the
 * live data.
 */
final class WorkerMemory {
  /** One look, in bytes (classes and threads as counts). */
  record Snapshot(long rss, long peakRss, long heapUsed, long heapCommitted, long metaspaceUsed, long classes, long threads) {}

  private final WorkerProcess worker;
  private final Path jcmd;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  WorkerMemory(WorkerProcess worker) {
    this.worker = worker;
    this.jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
  }

  Snapshot now() {
    String status = ProcStatus.of(worker.pid());
    String metrics = scrape();
    return new Snapshot(ProcStatus.kib(status, "VmRSS:") * 1024, ProcStatus.kib(status, "VmHWM:") * 1024,
        PrometheusText.sum(metrics, "jvm_memory_used_bytes", "area=\"heap\""),
        PrometheusText.sum(metrics, "jvm_memory_committed_bytes", "area=\"heap\""),
        PrometheusText.sum(metrics, "jvm_memory_used_bytes", "id=\"Metaspace\""),
        PrometheusText.sum(metrics, "jvm_classes_loaded_classes", ""),
        PrometheusText.sum(metrics, "jvm_threads_live_threads", ""));
  }

  /** A full collection, then a look: the heap in use is then what is live. */
  Snapshot liveHeap() {
    jcmd("GC.run");
    return now();
  }

  /** What {@code jcmd <worker> command} prints (e.g. {@code VM.native_memory summary} when the JVM tracks it). */
  String jcmd(String... command) {
    var line = new java.util.ArrayList<>(java.util.List.of(jcmd.toString(), Long.toString(worker.pid())));
    line.addAll(java.util.List.of(command));
    try {
      Process p = new ProcessBuilder(line).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes());
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException("jcmd " + String.join(" ", command) + " failed: " + out);
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private String scrape() {
    URI uri = worker.metricsUrl().resolve("/metrics");
    try {
      return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot scrape " + uri, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}

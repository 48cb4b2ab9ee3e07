package dev.farrier.worker.observability;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether every {@link DependencyCheck} answered in the last round. A probe reads the last result and never waits
 * for a dependency; {@link #refresh} runs the checks (the {@link HealthServer} every few seconds), each bounded by
 * {@link #CHECK_BOUND} even when a check ignores its own deadline.
 */
public final class Readiness implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Readiness.class);
  static final long CHECK_BOUND_MILLIS = 3_000;

  /** The last round's result: ready, or the dependencies that did not answer with why. */
  public record Report(boolean ready, String text) {
    static final Report NOT_CHECKED = new Report(false, "not checked yet\n");
  }

  private final List<DependencyCheck> checks;
  private final ExecutorService runner = Executors.newCachedThreadPool(r -> {
    var t = new Thread(r, "farrier-readiness-check");
    t.setDaemon(true);
    return t;
  });
  private volatile Report last = Report.NOT_CHECKED;

  public Readiness(List<DependencyCheck> checks) {
    this.checks = List.copyOf(checks);
  }

  public Report current() {
    return last;
  }

  /** Runs every check once, in parallel, and keeps the result. */
  public Report refresh() {
    List<Future<?>> running = new ArrayList<>();
    for (var check : checks) {
      running.add(runner.submit(() -> {
        check.check();
        return null;
      }));
    }
    List<String> down = new ArrayList<>();
    for (int i = 0; i < checks.size(); i++) {
      String why = outcome(running.get(i));
      if (why != null) {
        down.add(checks.get(i).name() + " is down: " + why);
      }
    }
    Report report = down.isEmpty() ? new Report(true, "ok\n") : new Report(false, String.join("\n", down) + "\n");
    if (report.ready() != last.ready()) {
      log.info("readiness changed ready={} {}", report.ready(), report.text().strip().replace('\n', ';'));
    }
    last = report;
    return report;
  }

  private static String outcome(Future<?> check) {
    try {
      check.get(CHECK_BOUND_MILLIS, TimeUnit.MILLISECONDS);
      return null;
    } catch (TimeoutException e) {
      check.cancel(true);
      return "no answer within " + CHECK_BOUND_MILLIS + " ms";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    } catch (Exception e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }
  }

  @Override
  public void close() {
    runner.shutdownNow();
  }
}

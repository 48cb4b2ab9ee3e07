package dev.farrier.worker.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Marker;
import org.slf4j.helpers.MessageFormatter;

/**
 * Keeps an outage of Temporal (or the API server) from flooding the log: while it lasts, every poller thread of the
 * Temporal SDK logs a stack trace at each retry. For loggers under {@code loggers}, the first failure with a given
 * exception class is logged whole; the same logger and exception class again within {@code interval} is counted,
 * not logged, and one line per interval says how many there were; once none has come for {@code quiet}, one line
 * says they stopped. Logback's {@code DuplicateMessageFilter} would never log the failure again.
 */
public final class RepeatedFailureFilter extends TurboFilter {
  private List<String> loggers = List.of("io.temporal", "io.grpc", "io.fabric8");
  private Duration interval = Duration.ofMinutes(1);
  private Duration quiet = Duration.ofMinutes(2);
  private Supplier<Instant> clock = Instant::now;
  private final Map<String, Failures> failures = new ConcurrentHashMap<>();
  private ScheduledExecutorService quietCheck;

  /** One logger's run of one exception class. */
  private static final class Failures {
    final Logger logger;
    /** The failures' level, which the summaries use too: the SDK's loggers are set to WARN, so INFO would vanish. */
    final Level level;
    final String exception;
    final Instant since;
    Instant last;
    Instant windowStart;
    long total = 1;
    long inWindow;
    String lastMessage;

    Failures(Logger logger, Level level, String exception, Instant now) {
      this.logger = logger;
      this.level = level;
      this.exception = exception;
      this.since = now;
      this.last = now;
      this.windowStart = now;
    }
  }

  /** Comma-separated logger name prefixes, e.g. {@code io.temporal,io.grpc}. */
  public void setLoggers(String names) {
    loggers = Arrays.stream(names.split(",")).map(String::strip).filter(n -> !n.isEmpty()).toList();
  }

  /** How often a run of failures is summed up in one line, ISO-8601 ({@code PT1M}). */
  public void setInterval(String interval) {
    this.interval = Duration.parse(interval);
  }

  /** How long without the failure before it is reported as stopped, ISO-8601 ({@code PT2M}). */
  public void setQuiet(String quiet) {
    this.quiet = Duration.parse(quiet);
  }

  void setClock(Supplier<Instant> clock) {
    this.clock = clock;
  }

  @Override
  public void start() {
    long every = Math.max(1, quiet.toSeconds() / 4);
    quietCheck = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "farrier-log-quiet-check");
      thread.setDaemon(true);
      return thread;
    });
    quietCheck.scheduleWithFixedDelay(this::reportStopped, every, every, TimeUnit.SECONDS);
    super.start();
  }

  @Override
  public void stop() {
    if (quietCheck != null) {
      quietCheck.shutdownNow();
    }
    super.stop();
  }

  @Override
  public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    Throwable failure = t != null ? t : lastThrowable(params);
    if (failure == null || !isStarted() || !logger.isEnabledFor(level) || !watched(logger.getName())) {
      return FilterReply.NEUTRAL;
    }
    Instant now = clock.get();
    String exception = failure.getClass().getName();
    boolean[] first = {false};
    Failures run = failures.computeIfAbsent(logger.getName() + " " + exception, key -> {
      first[0] = true;
      return new Failures(logger, level, exception, now);
    });
    if (first[0]) {
      return FilterReply.NEUTRAL;
    }
    String summary;
    synchronized (run) {
      run.last = now;
      run.total++;
      run.inWindow++;
      run.lastMessage = MessageFormatter.arrayFormat(format, params).getMessage() + ": " + failure;
      if (Duration.between(run.windowStart, now).compareTo(interval) < 0) {
        return FilterReply.DENY;
      }
      summary = "still failing, " + run.inWindow + " more in the last " + pretty(Duration.between(run.windowStart, now))
          + " (stack traces suppressed; the first was logged at " + seconds(run.since) + "), the latest: " + run.lastMessage;
      run.windowStart = now;
      run.inWindow = 0;
    }
    log(run, summary);
    return FilterReply.DENY;
  }

  /** Says which runs of failures have stopped, and forgets them so the next failure is logged whole again. */
  void reportStopped() {
    Instant now = clock.get();
    for (var entry : failures.entrySet()) {
      Failures run = entry.getValue();
      String line;
      synchronized (run) {
        if (Duration.between(run.last, now).compareTo(quiet) < 0) {
          continue;
        }
        failures.remove(entry.getKey());
        if (run.total == 1) {
          continue;
        }
        line = "no more " + run.exception + " for " + pretty(quiet) + ": " + run.total + " from " + seconds(run.since) + " to "
            + seconds(run.last) + (run.inWindow > 0 ? ", the last " + run.inWindow + " not logged: " + run.lastMessage : "");
      }
      log(run, line);
    }
  }

  private static void log(Failures run, String line) {
    switch (run.level.toInt()) {
      case Level.ERROR_INT -> run.logger.error(line);
      case Level.WARN_INT -> run.logger.warn(line);
      case Level.INFO_INT -> run.logger.info(line);
      default -> run.logger.debug(line);
    }
  }

  private boolean watched(String name) {
    for (String prefix : loggers) {
      if (name.equals(prefix) || name.startsWith(prefix + ".")) {
        return true;
      }
    }
    return false;
  }

  /** slf4j's convention: a Throwable as the last argument is the event's exception. */
  private static Throwable lastThrowable(Object[] params) {
    return params != null && params.length > 0 && params[params.length - 1] instanceof Throwable t ? t : null;
  }

  private static Instant seconds(Instant instant) {
    return instant.truncatedTo(ChronoUnit.SECONDS);
  }

  private static String pretty(Duration duration) {
    return duration.truncatedTo(ChronoUnit.SECONDS).toString().substring(2).toLowerCase();
  }
}

package dev.farrier.worker.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** An outage logs its first failure whole, one summary per interval, and one line when it has stopped. */
class RepeatedFailureFilterTest {
  private final LoggerContext context = new LoggerContext();
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final RepeatedFailureFilter filter = new RepeatedFailureFilter();
  private Instant now = Instant.parse("2026-01-01T10:00:00Z");
  private Logger poller;

  @BeforeEach
  void setUp() {
    appender.setContext(context);
    appender.start();
    context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);
    filter.setContext(context);
    filter.setLoggers("io.temporal, io.grpc");
    filter.setInterval("PT1M");
    filter.setQuiet("PT2M");
    filter.setClock(() -> now);
    filter.start();
    context.addTurboFilter(filter);
    poller = context.getLogger("io.temporal.internal.worker.BasePoller");
  }

  @AfterEach
  void tearDown() {
    filter.stop();
  }

  @Test
  void anOutageIsLoggedOnceThenSummedUpOncePerIntervalThenReportedOver() {
    for (int i = 0; i < 100; i++) {
      poller.warn("Failure in poller thread Workflow Poller " + (i % 5), unavailable());
      now = now.plusMillis(100);
    }
    assertEquals(1, appender.list.size(), "within the first minute only the first failure is logged");
    assertNotNull(appender.list.getFirst().getThrowableProxy(), "with its stack trace");

    now = now.plusSeconds(51);
    poller.warn("Failure in poller thread Workflow Poller 3", unavailable());
    assertEquals(2, appender.list.size(), "a minute on, one line sums up the failures since");
    ILoggingEvent summary = appender.list.get(1);
    assertNull(summary.getThrowableProxy(), "the summary has no stack trace");
    assertEquals("io.temporal.internal.worker.BasePoller", summary.getLoggerName());
    assertTrue(summary.getFormattedMessage().startsWith("still failing, 100 more in the last 1m"), summary.getFormattedMessage());
    assertTrue(summary.getFormattedMessage().endsWith("the latest: Failure in poller thread Workflow Poller 3: "
        + unavailable()), summary.getFormattedMessage());

    now = now.plusSeconds(30);
    poller.warn("Failure in poller thread Workflow Poller 1", unavailable());
    now = now.plusSeconds(119);
    filter.reportStopped();
    assertEquals(2, appender.list.size(), "not two minutes quiet yet");

    now = now.plusSeconds(1);
    filter.reportStopped();
    assertEquals(3, appender.list.size());
    String over = appender.list.get(2).getFormattedMessage();
    assertTrue(over.startsWith("no more java.net.ConnectException for 2m: 102 from 2026-01-01T10:00:00Z to 2026-01-01T10:01:31Z"
        + ", the last 1 not logged: Failure in poller thread Workflow Poller 1"), over);

    poller.warn("Failure in poller thread Workflow Poller 2", unavailable());
    assertEquals(4, appender.list.size(), "the next outage is logged whole again");
    assertNotNull(appender.list.get(3).getThrowableProxy());
  }

  @Test
  void theSummariesPassTheLevelTheSdksLoggersAreSetTo() {
    context.getLogger("io.temporal").setLevel(Level.WARN);
    poller.warn("poll failed", unavailable());
    now = now.plusSeconds(61);
    poller.warn("poll failed", unavailable());
    now = now.plusSeconds(121);
    filter.reportStopped();
    assertEquals(List.of(Level.WARN, Level.WARN, Level.WARN), appender.list.stream().map(ILoggingEvent::getLevel).toList());
    assertTrue(appender.list.get(2).getFormattedMessage().startsWith("no more"), appender.list.get(2).getFormattedMessage());
  }

  @Test
  void eachLoggerAndExceptionClassIsItsOwnRun() {
    poller.warn("poll failed", unavailable());
    poller.warn("poll failed", new IllegalStateException("other"));
    context.getLogger("io.grpc.internal.ManagedChannelImpl").warn("channel failed", unavailable());
    poller.warn("poll failed", unavailable());
    assertEquals(3, appender.list.size());
  }

  @Test
  void farriersOwnLoggersAndLinesWithoutAnExceptionAreNeverHeld() {
    Logger own = context.getLogger("dev.farrier.activities.drain.NodeActivitiesImpl");
    for (int i = 0; i < 3; i++) {
      own.warn("eviction failed", unavailable());
      poller.warn("no exception here");
    }
    assertEquals(6, appender.list.size());
  }

  @Test
  void anExceptionPassedAsTheLastArgumentCounts() {
    poller.warn("poll failed for {}", "queue", unavailable());
    poller.warn("poll failed for {}", "queue", unavailable());
    assertEquals(1, appender.list.size());
  }

  @Test
  void aSingleFailureIsNotReportedAsAnOutageThatEnded() {
    poller.warn("poll failed", unavailable());
    now = now.plus(Duration.ofMinutes(5));
    filter.reportStopped();
    assertEquals(List.of("poll failed"), appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList());
  }

  private static ConnectException unavailable() {
    return new ConnectException("Connection refused");
  }
}

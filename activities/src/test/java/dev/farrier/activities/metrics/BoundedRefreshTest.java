package dev.farrier.activities.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A read that hangs does not hang the scrape: the refresh gives up at its bound, a second refresh waits on the same
 * read instead of starting another, and once it completes the next refresh reads again; a failed read is rethrown.
 */
class BoundedRefreshTest {
  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS) // only stops a hung test
  void aHungReadIsNotWaitedForAndNotStartedTwice() throws Exception {
    var release = new CountDownLatch(1);
    var reads = new AtomicInteger();
    try (var refresh = new BoundedRefresh("test-read", () -> {
      reads.incrementAndGet();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, Duration.ofMillis(50))) {
      assertThrows(IllegalStateException.class, refresh::refresh);
      assertThrows(IllegalStateException.class, refresh::refresh);
      assertEquals(1, reads.get(), "the second refresh waited on the read in flight");
      release.countDown();
      while (true) { // until a refresh completes within its bound (the first read is about to)
        try {
          refresh.refresh();
          break;
        } catch (IllegalStateException stillInFlight) {
          // the loop ends when a refresh sees it done within its bound
        }
      }
      int before = reads.get();
      refresh.refresh();
      assertEquals(before + 1, reads.get(), "a refresh after the read completed reads again");
    }
  }

  @Test
  void aFailedReadIsRethrown() {
    try (var refresh = new BoundedRefresh("test-read", () -> {
      throw new IllegalArgumentException("visibility is down");
    }, Duration.ofSeconds(10))) {
      assertEquals("visibility is down", assertThrows(IllegalArgumentException.class, refresh::refresh).getMessage());
    }
  }
}

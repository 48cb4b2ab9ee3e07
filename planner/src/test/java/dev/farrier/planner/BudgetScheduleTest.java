package dev.farrier.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BudgetScheduleTest {
  private static boolean active(String schedule, String duration, String nowUtc) {
    return BudgetSchedule.active(new DisruptionBudget("0", List.of(), schedule, duration), Instant.parse(nowUtc).toEpochMilli());
  }

  /** 2026-11-23 is a Monday. The window is (firing, firing + duration]: from the firing itself to just before its end. */
  @ParameterizedTest
  @CsvSource({
      "0 9 * * mon-fri, 8h,    2026-11-23T09:00:00Z, true",
      "0 9 * * mon-fri, 8h,    2026-11-23T16:59:59Z, true",
      "0 9 * * mon-fri, 8h,    2026-11-23T17:00:00Z, false",
      "0 9 * * mon-fri, 8h,    2026-11-23T08:59:59Z, false",
      "0 9 * * mon-fri, 8h,    2026-11-28T10:00:00Z, false",
      "0 9 * * mon-fri, 8h,    2026-11-27T12:00:00Z, true",
      "@daily,          1h,    2026-11-24T00:30:00Z, true",
      "@daily,          1h,    2026-11-24T01:30:00Z, false",
      "@hourly,         10m,   2026-11-24T13:05:00Z, true",
      "@hourly,         10m,   2026-11-24T13:15:00Z, false",
      "0 22 * * *,      4h,    2026-11-24T01:00:00Z, true",
      "0 22 * * *,      1h30m, 2026-11-24T23:29:00Z, true",
      "0 22 * * *,      1h30m, 2026-11-24T23:31:00Z, false",
  })
  void aScheduledBudgetIsInForceForItsDurationAfterEachFiringInUtc(String schedule, String duration, String now, boolean active) {
    assertEquals(active, active(schedule, duration, now));
  }

  @ParameterizedTest
  @CsvSource({
      "'',              '',   ",
      "0 9 * * mon-fri, 8h,   ",
      "@weekly,         24h,  ",
      "0 9 * * mon-fri, '',   schedule and duration go together",
      "'',              8h,   schedule and duration go together",
      "61 * * * *,      1h,   is not a cron schedule",
      "every day,       1h,   is not a cron schedule",
      "0 9 * * *,       soon, is not a positive duration",
  })
  void aScheduleOrDurationThatCannotBeUsedSaysWhy(String schedule, String duration, String problem) {
    Optional<String> found = BudgetSchedule.problem(schedule, duration);
    if (problem == null) {
      assertEquals(Optional.empty(), found);
    } else {
      assertTrue(found.orElse("").contains(problem), found.toString());
    }
  }

  @ParameterizedTest
  @CsvSource({"61 * * * *, 1h", "0 9 * * *, soon"})
  void aBudgetThatCannotBeReadIsInForceTheSafeSide(String schedule, String duration) {
    assertTrue(active(schedule, duration, "2026-11-24T12:00:00Z"));
  }

  @org.junit.jupiter.api.Test
  void aBudgetWithoutScheduleIsAlwaysInForce() {
    assertTrue(BudgetSchedule.active(DisruptionBudget.of("1"), 0));
  }
}

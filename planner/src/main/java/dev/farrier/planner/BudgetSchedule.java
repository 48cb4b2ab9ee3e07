package dev.farrier.planner;

import dev.farrier.model.GoDurations;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * When a disruption budget with a {@code schedule} is in force, as Karpenter reads it: the schedule is cron in UTC
 * (five fields, or a macro such as {@code @daily}), parsed by cron-utils; the budget is active for {@code duration}
 * (a Go duration such as {@code 8h}) after each time the schedule fires, that is when the schedule fired in
 * {@code (now - duration, now]}. A budget without a schedule is always active.
 */
public final class BudgetSchedule {
  /** Unix crontab's five fields (as cron-utils defines them) plus the macros Karpenter's cron library accepts. */
  private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.defineCron()
      .withMinutes().withValidRange(0, 59).withStrictRange().and()
      .withHours().withValidRange(0, 23).withStrictRange().and()
      .withDayOfMonth().withValidRange(1, 31).withStrictRange().and()
      .withMonth().withValidRange(1, 12).withStrictRange().and()
      .withDayOfWeek().withValidRange(0, 7).withMondayDoWValue(1).withIntMapping(7, 0).withStrictRange().and()
      .matchDayOfWeekAndDayOfMonth()
      .withSupportedNicknameYearly().withSupportedNicknameAnnually().withSupportedNicknameMonthly()
      .withSupportedNicknameWeekly().withSupportedNicknameDaily().withSupportedNicknameMidnight().withSupportedNicknameHourly()
      .instance());

  private BudgetSchedule() {}

  /** Why {@code schedule} and {@code duration} cannot be used, or empty when they can (both blank counts as usable). */
  public static Optional<String> problem(String schedule, String duration) {
    if (blank(schedule) != blank(duration)) {
      return Optional.of("schedule and duration go together");
    }
    if (blank(schedule)) {
      return Optional.empty();
    }
    Optional<String> cron = scheduleProblem(schedule);
    if (cron.isPresent()) {
      return Optional.of("schedule '" + schedule + "' " + cron.get());
    }
    Long millis = GoDurations.toMillis(duration);
    if (millis == null || millis <= 0) {
      return Optional.of("duration '" + duration + "' is not a positive duration such as 8h or 1h30m");
    }
    return Optional.empty();
  }

  /** Why {@code schedule} is not a cron schedule, as cron-utils says it, or empty when it is one. */
  public static Optional<String> scheduleProblem(String schedule) {
    try {
      PARSER.parse(schedule.trim()).validate();
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of("is not a cron schedule (five fields in UTC, or @daily, @hourly, ...): " + e.getMessage());
    }
  }

  /**
   * Whether {@code budget} is in force at {@code nowMillis}. A budget whose schedule or duration cannot be read is
   * treated as in force (the safe side: it limits rather than frees); validation reports it on the NodePool.
   */
  public static boolean active(DisruptionBudget budget, long nowMillis) {
    if (blank(budget.schedule())) {
      return true;
    }
    if (problem(budget.schedule(), budget.duration()).isPresent()) {
      return true;
    }
    long duration = GoDurations.toMillis(budget.duration());
    var windowStart = ZonedDateTime.ofInstant(Instant.ofEpochMilli(nowMillis - duration), ZoneOffset.UTC);
    return ExecutionTime.forCron(PARSER.parse(budget.schedule().trim())).nextExecution(windowStart)
        .map(next -> !next.toInstant().isAfter(Instant.ofEpochMilli(nowMillis)))
        .orElse(false);
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}

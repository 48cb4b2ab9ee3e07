package dev.farrier.sandbox.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Work that ran over time (replacements, each from its start to its close), seen as a whole: the span from the first
 * start to the last close, how many ran at once at each moment, and on average over the span.
 */
public record Intervals(List<Interval> all) {
  /** One piece of work, in milliseconds since the epoch. */
  public record Interval(long start, long end) {
    public Interval {
      if (end < start) {
        throw new IllegalArgumentException("ends before it starts: " + start + " > " + end);
      }
    }

    long length() {
      return end - start;
    }
  }

  public Intervals {
    if (all.isEmpty()) {
      throw new IllegalArgumentException("no intervals");
    }
    all = List.copyOf(all);
  }

  public long firstStart() {
    return all.stream().mapToLong(Interval::start).min().orElseThrow();
  }

  public long lastEnd() {
    return all.stream().mapToLong(Interval::end).max().orElseThrow();
  }

  /** From the first start to the last end. */
  public long spanMillis() {
    return lastEnd() - firstStart();
  }

  /** Running at once, averaged over the span: the summed lengths over the span. */
  public double meanConcurrency() {
    long span = spanMillis();
    return span == 0 ? all.size() : all.stream().mapToLong(Interval::length).sum() / (double) span;
  }

  /** How many run at {@code at} (a start counts, an end does not). */
  public int runningAt(long at) {
    return (int) all.stream().filter(i -> i.start() <= at && at < i.end()).count();
  }

  public int maxConcurrency() {
    int max = 0;
    for (Interval i : all) {
      max = Math.max(max, runningAt(i.start()));
    }
    return max;
  }

  /** (seconds since {@code origin}, running) every {@code stepMillis} from {@code origin} to the last end. */
  public List<double[]> runningOverTime(long origin, long stepMillis) {
    List<double[]> points = new ArrayList<>();
    for (long t = origin; t <= lastEnd(); t += stepMillis) {
      points.add(new double[] {(t - origin) / 1000.0, runningAt(t)});
    }
    return points;
  }

  /** (seconds since {@code origin}, ended so far) every {@code stepMillis} from {@code origin} to the last end. */
  public List<double[]> endedOverTime(long origin, long stepMillis) {
    List<double[]> points = new ArrayList<>();
    for (long t = origin; t <= lastEnd(); t += stepMillis) {
      long at = t;
      points.add(new double[] {(t - origin) / 1000.0, all.stream().filter(i -> i.end() <= at).count()});
    }
    return points;
  }

  /**
   * The shortest time {@code all.size()} pieces of work of length {@code lengthMillis} could take with at most
   * {@code slots} at once: {@code ceil(n / slots)} waves one after the other.
   */
  public static long idealMillis(int count, int slots, double lengthMillis) {
    if (slots < 1) {
      throw new IllegalArgumentException("no slot: " + slots);
    }
    return Math.round(Math.ceil(count / (double) slots) * lengthMillis);
  }
}

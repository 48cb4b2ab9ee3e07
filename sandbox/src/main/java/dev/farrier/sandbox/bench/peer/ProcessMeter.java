package dev.farrier.sandbox.bench.peer;

import dev.farrier.sandbox.bench.ProcStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A process's resident memory and CPU time from {@code /proc}, the same for a JVM and a Go binary: sampled every
 * second by the run, with a peak since the last {@link #mark()}.
 */
final class ProcessMeter {
  /** Clock ticks per second of {@code /proc/<pid>/stat} (USER_HZ, 100 on Linux). */
  static final long TICKS_PER_SECOND = 100;

  /** What one phase cost: CPU seconds, peak and last RSS in MiB. */
  record Use(double cpuSeconds, double peakRssMiB, double lastRssMiB) {}

  private final long pid;
  private final AtomicLong peakKiB = new AtomicLong();
  private volatile long lastKiB;
  private volatile long ticksAtMark;

  ProcessMeter(long pid) {
    this.pid = pid;
    mark();
  }

  /** Starts a phase: the CPU time so far is its zero and its peak starts from now. */
  void mark() {
    sample();
    ticksAtMark = ticks().orElse(0);
    peakKiB.set(lastKiB);
  }

  void sample() {
    rssKiB().ifPresent(kib -> {
      lastKiB = kib;
      peakKiB.accumulateAndGet(kib, Math::max);
    });
  }

  /** The phase so far. */
  Use use() {
    sample();
    long ticks = ticks().orElse(ticksAtMark);
    return new Use((ticks - ticksAtMark) / (double) TICKS_PER_SECOND, peakKiB.get() / 1024.0, lastKiB / 1024.0);
  }

  private OptionalLong rssKiB() {
    try {
      return OptionalLong.of(ProcStatus.kib(ProcStatus.of(pid), "VmRSS:"));
    } catch (RuntimeException e) {
      return OptionalLong.empty(); // The process is gone: its last figures stand.
    }
  }

  private OptionalLong ticks() {
    try {
      return OptionalLong.of(parseTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat"))));
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  /** utime + stime of a {@code /proc/<pid>/stat} line (fields 14 and 15; the command name may hold spaces). */
  static long parseTicks(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }
}

package dev.farrier.sandbox.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A process's {@code /proc/<pid>/status}, as the benchmarks read memory from outside the process they measure. */
public final class ProcStatus {
  private ProcStatus() {}

  /** The status text; fails when the process is gone. */
  public static String of(long pid) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(pid), "status"));
    } catch (IOException e) {
      throw new UncheckedIOException("process " + pid + " is gone", e);
    }
  }

  /** A field given in kB ({@code VmRSS:}, {@code VmHWM:}), in KiB. */
  public static long kib(String status, String field) {
    return status.lines().filter(l -> l.startsWith(field)).findFirst()
        .map(l -> Long.parseLong(l.substring(field.length()).replace("kB", "").strip()))
        .orElseThrow(() -> new IllegalStateException(field + " not in /proc status"));
  }
}

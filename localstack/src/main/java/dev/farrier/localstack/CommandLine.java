package dev.farrier.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a short command to completion; its output goes through a temp file so a chatty command cannot block. */
final class CommandLine {
  private CommandLine() {}

  /** Exit code and combined stdout/stderr; exit code -1 when the command timed out and was killed. */
  record Result(int exitCode, String output) {
    boolean succeeded() {
      return exitCode == 0;
    }
  }

  /** Exit code, stdout and stderr apart (for a command whose stdout is a document to parse). */
  record Captured(int exitCode, String stdout, String stderr) {
    boolean succeeded() {
      return exitCode == 0;
    }
  }

  static Captured capture(List<String> command, Duration timeout) throws InterruptedException {
    Path stderr = null;
    try {
      stderr = Files.createTempFile("farrier-cmd-", ".err");
      ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr.toFile());
      Result result = run(builder, command, timeout);
      return new Captured(result.exitCode(), result.output(), Files.readString(stderr));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command.getFirst(), e);
    } finally {
      deleteQuietly(stderr);
    }
  }

  static Result run(List<String> command, Duration timeout) throws InterruptedException {
    return run(new ProcessBuilder(command).redirectErrorStream(true), command, timeout);
  }

  private static Result run(ProcessBuilder builder, List<String> command, Duration timeout) throws InterruptedException {
    Path output = null;
    try {
      output = Files.createTempFile("farrier-cmd-", ".out");
      Process process = builder
          .redirectOutput(output.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
          .start();
      int exitCode;
      if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        exitCode = process.exitValue();
      } else {
        process.destroyForcibly().waitFor();
        exitCode = -1;
      }
      return new Result(exitCode, Files.readString(output));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command.getFirst(), e);
    } finally {
      deleteQuietly(output);
    }
  }

  private static void deleteQuietly(Path file) {
    if (file == null) {
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException ignored) {
      // a leftover temp file is harmless
    }
  }
}

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

  static Result run(List<String> command, Duration timeout) throws InterruptedException {
    Path output = null;
    try {
      output = Files.createTempFile("farrier-cmd-", ".out");
      Process process = new ProcessBuilder(command)
          .redirectErrorStream(true)
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
      if (output != null) {
        try {
          Files.deleteIfExists(output);
        } catch (IOException ignored) {
          // a leftover temp file is harmless
        }
      }
    }
  }
}

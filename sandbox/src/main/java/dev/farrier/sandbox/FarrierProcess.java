package dev.farrier.sandbox;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** {@code bin/farrier} run as a CI job or a person runs it, against the sandbox's Temporal and cluster. */
public final class FarrierProcess {
  private FarrierProcess() {}

  /** Runs {@code command} (its first word is {@code farrier}), echoing its stderr to {@code out} as it comes. */
  public static UpgradeScenario.CliRun run(SandboxEnvironment env, Path farrier, List<String> command, Duration timeout, PrintStream out,
      Supplier<String> diagnostics) {
    var builder = new ProcessBuilder(command);
    builder.environment().put("FARRIER_TEMPORAL_ADDRESS", env.stack().temporalAddress());
    builder.environment().put("FARRIER_CLUSTER_NAME", env.cluster());
    builder.directory(farrier.toAbsolutePath().getParent().getParent().toFile());
    Instant started = Instant.now();
    String name = String.join(" ", command.subList(1, Math.min(2, command.size())));
    try {
      Process process = builder.start();
      List<String> stderr = new ArrayList<>();
      Thread errors = Thread.ofPlatform().daemon().start(() -> {
        try (var lines = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
          String line;
          while ((line = lines.readLine()) != null) {
            synchronized (stderr) {
              stderr.add(line);
            }
            out.println("   | " + line);
          }
        } catch (IOException e) {
          out.println("   (stderr unreadable: " + e + ")");
        }
      });
      env.stack().adopt(process.pid());
      var stdout = new java.util.concurrent.CompletableFuture<String>();
      Thread.ofPlatform().daemon().start(() -> {
        try {
          stdout.complete(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
          stdout.completeExceptionally(e);
        }
      });
      if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("farrier " + name + " did not end within " + timeout + "\n" + diagnostics.get());
      }
      errors.join(Duration.ofSeconds(5));
      synchronized (stderr) {
        return new UpgradeScenario.CliRun(process.exitValue(), stdout.get(5, TimeUnit.SECONDS), List.copyOf(stderr),
            Duration.between(started, Instant.now()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command, e);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("farrier " + name + "'s output unreadable", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while farrier " + name + " ran", e);
    }
  }
}

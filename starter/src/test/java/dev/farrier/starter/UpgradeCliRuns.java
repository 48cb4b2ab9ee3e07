package dev.farrier.starter;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.sandbox.UpgradeScenario;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * How the {@code farrier upgrade} end-to-end tests run: {@code bin/farrier} in a shell process against the real local
 * stack (Temporal dev server, kube-apiserver with kwok nodes, the simulated cloud) with the worker in its own JVM, one
 * stack per test. Each test is a class of its own, so the integration test JVMs run them side by side.
 */
final class UpgradeCliRuns {
  static final Path FARRIER = Path.of("..", "bin", "farrier").toAbsolutePath().normalize();

  private UpgradeCliRuns() {}

  static SandboxEnvironment start(String name) throws Exception {
    assertTrue(Files.isExecutable(FARRIER), FARRIER + " is not executable");
    var env = SandboxEnvironment.start(SandboxEnvironment.recreate(Path.of("target", "e2e", name).toAbsolutePath()), "e2e-" + name, 0);
    env.startWorker(Map.of("FARRIER_LAUNCH_REGISTRATION_TIMEOUT", UpgradeScenario.REGISTRATION_TIMEOUT));
    return env;
  }

  /** Plays one scenario on a stack of its own; {@code out} keeps what it printed for a failure's message. */
  static UpgradeScenario.CliRun play(String name, BiFunction<UpgradeScenario, PrintStream, UpgradeScenario.CliRun> scenario,
      ByteArrayOutputStream out) throws Exception {
    try (var env = start(name)) {
      return scenario.apply(new UpgradeScenario(env, Duration.ofMinutes(12)), new PrintStream(out, true, StandardCharsets.UTF_8));
    }
  }
}

package dev.farrier.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.sandbox.UpgradeScenario;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code farrier upgrade --wait} as a CI job runs it: {@code bin/farrier} in a shell process against the real local
 * stack (Temporal dev server, kube-apiserver with kwok nodes, the simulated cloud) with the worker in its own JVM. The
 * sandbox's {@code upgrade} and {@code bad-ami} scenarios check what the job sees and what the cluster shows after;
 * these tests add what the workflows record. {@link RollingUpgradeCliIT} has the rolling ones (a class each, so the two
 * run in parallel test JVMs).
 */
class UpgradeCliIT {
  static final Path FARRIER = Path.of("..", "bin", "farrier").toAbsolutePath().normalize();

  static SandboxEnvironment start(String name) throws Exception {
    assertTrue(Files.isExecutable(FARRIER), FARRIER + " is not executable");
    var env = SandboxEnvironment.start(SandboxEnvironment.recreate(Path.of("target", "e2e", name).toAbsolutePath()), "e2e-" + name, 0);
    env.startWorker(Map.of("FARRIER_LAUNCH_REGISTRATION_TIMEOUT", UpgradeScenario.REGISTRATION_TIMEOUT));
    return env;
  }

  /** Plays one scenario on a stack of its own; {@code out} keeps what it printed for a failure's message. */
  static UpgradeScenario.CliRun play(String name, java.util.function.BiFunction<UpgradeScenario, PrintStream, UpgradeScenario.CliRun> scenario,
      ByteArrayOutputStream out) throws Exception {
    try (var env = start(name)) {
      return scenario.apply(new UpgradeScenario(env, Duration.ofMinutes(12)), new PrintStream(out, true, StandardCharsets.UTF_8));
    }
  }

  @Test
  void aGoodAmiRollsTheWholeFleetCanaryFirstAndExitsZero() throws Exception {
    var out = new ByteArrayOutputStream();
    var run = play("upgrade", (fleet, print) -> fleet.playGood(FARRIER, List.of(), print), out);

    var result = UpgradeScenario.json(run.stdout());
    assertEquals(6, result.get("replaced"), out.toString(StandardCharsets.UTF_8));
    assertEquals(4, result.get("batches"), "a canary of one, then batches of two: " + result);
    assertTrue(run.stderr().getFirst().startsWith("started rollout upgrade/fleet/al2023@v20251103"), run.stderr().toString());
    assertTrue(run.stderr().stream().anyMatch(l -> l.contains("Canary, batch 1")), run.stderr().toString());
  }

  @Test
  void anAmiWhoseNodesNeverJoinStopsAfterTheCanaryKeepsTheOldNodesAndExitsFive() throws Exception {
    var out = new ByteArrayOutputStream();
    var run = play("bad-ami", (fleet, print) -> fleet.playBadAmi(FARRIER, print), out);

    var result = UpgradeScenario.json(run.stdout());
    assertEquals(0, result.get("replaced"), out.toString(StandardCharsets.UTF_8));
    assertEquals("Failed", result.get("outcome"));
    assertTrue(String.valueOf(result.get("cause")).startsWith("replacement of fleet-"), String.valueOf(result.get("cause")));
  }
}

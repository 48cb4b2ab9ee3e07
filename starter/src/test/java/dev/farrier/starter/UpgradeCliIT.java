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
 * these tests add what the workflows record.
 */
class UpgradeCliIT {
  private static final Path FARRIER = Path.of("..", "bin", "farrier").toAbsolutePath().normalize();

  private static SandboxEnvironment start(String name) throws Exception {
    assertTrue(Files.isExecutable(FARRIER), FARRIER + " is not executable");
    var env = SandboxEnvironment.start(SandboxEnvironment.recreate(Path.of("target", "e2e", name).toAbsolutePath()), "e2e-" + name, 0);
    env.startWorker(Map.of("FARRIER_LAUNCH_REGISTRATION_TIMEOUT", UpgradeScenario.REGISTRATION_TIMEOUT));
    return env;
  }

  /** Plays one scenario on a stack of its own; {@code out} keeps what it printed for a failure's message. */
  private static UpgradeScenario.CliRun play(String name, java.util.function.BiFunction<UpgradeScenario, PrintStream, UpgradeScenario.CliRun> scenario,
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

  /**
   * {@code --rolling} on the real stack: the planner is asked while replacements run, with the rollout's own in flight
   * named, under the fleet's budget of two and its PDB; every node is rolled, each gated on its own.
   */
  @Test
  void aRollingUpgradeRollsTheWholeFleetRefillingEachSlotAsItsReplacementPasses() throws Exception {
    var out = new ByteArrayOutputStream();
    var run = play("upgrade-rolling", (fleet, print) -> fleet.playGood(FARRIER, List.of("--rolling"), print), out);

    var result = UpgradeScenario.json(run.stdout());
    assertEquals(6, result.get("replaced"), out.toString(StandardCharsets.UTF_8));
    assertEquals(0, result.get("failures"), result.toString());
    assertTrue(run.stderr().stream().anyMatch(l -> l.contains(": Rolling")), run.stderr().toString());
  }

  /**
   * Issue 38 as a CI job met it: two NodePools of two architectures on one EC2NodeClass, a rollout aborted while its
   * canary replacement runs, then at once a rollout to the next release. It exits 0 only with every node of both
   * NodePools on the new images, the node whose replacement the abort stopped included (the scenario checks the fleet);
   * the aborted rollout's result says it was aborted.
   */
  @Test
  void aRolloutRightAfterAnAbortedOneReplacesEveryNodeOfBothArchitectures() throws Exception {
    var out = new ByteArrayOutputStream();
    dev.farrier.sandbox.AbortThenUpgradeScenario.Played played;
    try (var env = start("abort-then-upgrade")) {
      played = new dev.farrier.sandbox.AbortThenUpgradeScenario(env, Duration.ofMinutes(12))
          .play(FARRIER, new PrintStream(out, true, StandardCharsets.UTF_8));
    }
    String log = out.toString(StandardCharsets.UTF_8);
    assertTrue(played.aborted().stdout().contains("Aborted"), played.aborted().stdout() + "\n" + log);
    var result = UpgradeScenario.json(played.rollout().stdout());
    assertEquals(result.get("total"), result.get("replaced"), "every node it counted was replaced: " + result + "\n" + log);
    assertTrue((Integer) result.get("replaced") >= 5, "both NodePools' nodes, the one the abort stopped too: " + result + "\n" + log);
    assertTrue(played.after().keySet().stream().noneMatch(played.before()::containsKey),
        "every old node gone: before " + played.before() + ", after " + played.after());
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

package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.sandbox.StaticScenario;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's {@code static} scenario end to end (simulated cloud, real worker, Kubernetes and Temporal): a static
 * NodePool of 3 with no pods and consolidateAfter 0s, scaled to 5 and back to 3 through the scale subresource. Its nodes
 * are spread over the zones, never consolidated, and the scale-down's two forceful removals are the only replacements.
 */
class StaticNodePoolIT {
  @Test
  void aStaticPoolOfThreeIsScaledToFiveAndBackAndItsEmptyNodesAreNeverConsolidated() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("static"), "e2e-static", 0)) {
      env.startWorker();
      var out = new ByteArrayOutputStream();
      var played = new StaticScenario(env, E2e.scenario(env), E2e.TIMEOUT).play(new PrintStream(out, true, StandardCharsets.UTF_8));

      assertEquals(List.of(), StaticScenario.problems(played), out.toString(StandardCharsets.UTF_8));
      assertEquals(StaticScenario.REPLICAS, played.initial().size());
      assertEquals(StaticScenario.SCALED_UP, played.scaledUp().size());
      assertEquals(StaticScenario.REPLICAS, played.scaledDown().size());
      assertEquals(StaticScenario.SCALED_UP - StaticScenario.REPLICAS, played.replacements().size(), played.toString());
      Map<String, Long> perZone = played.scaledUp().values().stream().collect(Collectors.groupingBy(z -> z, Collectors.counting()));
      long most = perZone.values().stream().mapToLong(Long::longValue).max().orElseThrow();
      long fewest = perZone.values().stream().mapToLong(Long::longValue).min().orElseThrow();
      assertTrue(most - fewest <= 1, "spread over the zones: " + perZone);
      E2e.assertInstancesMatchNodes(env);
    }
  }
}

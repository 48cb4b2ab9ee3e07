package dev.farrier.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.MigrateScenario;
import dev.farrier.sandbox.SandboxEnvironment;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's {@code migrate} scenario end to end: seed 002's v1alpha5 Provisioner and a Deployment on the old
 * label and annotation, migrated by {@code bin/farrier migrate --check} in a shell process, applied to the real
 * local stack, and provisioned a node by the worker, with the old behaviour in the stored NodePool.
 */
class MigrateScenarioIT {
  private static final Path FARRIER = Path.of("..", "bin", "farrier").toAbsolutePath().normalize();

  @Test
  void oldManifestsMigratedAndAppliedProvisionANode() throws Exception {
    assertTrue(Files.isExecutable(FARRIER), FARRIER + " is not executable");
    Path dir = SandboxEnvironment.recreate(Path.of("target", "e2e", "migrate").toAbsolutePath());
    var out = new ByteArrayOutputStream();
    try (var env = SandboxEnvironment.start(dir, "e2e-migrate", 0)) {
      env.startWorker();
      var played = new MigrateScenario(env, Duration.ofMinutes(5)).play(FARRIER, dir.resolve("migrate"),
          new PrintStream(out, true, StandardCharsets.UTF_8));
      String printed = out.toString(StandardCharsets.UTF_8);
      assertEquals(0, played.migrate().exitCode(), printed);
      assertEquals(Map.of("consolidationPolicy", "WhenEmpty", "consolidateAfter", "30s", "budgets", java.util.List.of(Map.of("nodes", "10%"))),
          played.disruption(), printed);
      assertEquals("30m", played.expireAfter(), printed);
      var node = env.kube().nodes().withName(played.node()).get();
      assertEquals("default", node.getMetadata().getLabels().get("karpenter.sh/nodepool"), printed);
      var pods = env.kube().pods().inNamespace("default").withLabel("app", "inflate").list().getItems();
      assertTrue(pods.stream().allMatch(p -> "true".equals(p.getMetadata().getAnnotations().get("karpenter.sh/do-not-disrupt"))
          && played.node().equals(p.getSpec().getNodeName())), printed);
      String v1 = Files.readString(played.output());
      assertTrue(v1.contains("instanceProfile: KarpenterNodeInstanceProfile-e2e-migrate") && v1.contains("alias: al2@latest")
          && v1.contains("httpPutResponseHopLimit: 2"), v1);
    }
  }
}

package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.GoDurations;
import dev.farrier.sandbox.ExpiryScenario;
import dev.farrier.sandbox.SandboxEnvironment;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Forceful expiry end to end, as Karpenter v1: the expired node is drained at once with its replacement launched in
 * parallel, a PDB allowing no eviction holds the drain (and the drain names it) until the NodePool's
 * terminationGracePeriod, never longer, and then the pods are deleted, come back on the replacement, and the node goes.
 */
class ExpiryIT {
  @Test
  void anExpiredNodeIsDrainedAtOnceHeldByItsPdbOnlyUntilTheTerminationGracePeriod() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("expiry"), "e2e-expiry", 0)) {
      env.startWorker();
      var scenario = E2e.scenario(env);
      var node = scenario.provision("1.34", ExpiryScenario::edit);

      var expired = new ExpiryScenario(env.kube(), scenario, E2e.TIMEOUT).awaitExpiry(node);

      assertEquals("Done", expired.result().outcome());
      assertTrue(expired.blockedBy().stream().anyMatch(m -> m.contains("inflate-pdb")), "the drain names the PDB: " + expired.blockedBy());
      long heldSeconds = Duration.between(expired.drainStartedAt(), expired.podsGoneAt()).toSeconds();
      long grace = GoDurations.toMillis(ExpiryScenario.GRACE) / 1000;
      assertTrue(heldSeconds >= grace - 2, "the PDB held the pods until the " + ExpiryScenario.GRACE + " grace period ended, not "
          + heldSeconds + "s");
      assertTrue(heldSeconds < grace + 60, "the pods went soon after the grace period ended, not " + heldSeconds
          + "s after the drain started");
      assertTrue(expired.replacementCreatedAt() != null && expired.replacementCreatedAt().isBefore(expired.podsGoneAt()),
          "the replacement was launched in parallel with the drain: " + expired);
    }
  }
}

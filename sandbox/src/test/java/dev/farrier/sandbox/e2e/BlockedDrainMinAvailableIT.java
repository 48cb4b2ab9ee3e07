package dev.farrier.sandbox.e2e;

import dev.farrier.sandbox.BlockedDrainScenario;
import org.junit.jupiter.api.Test;

/** {@link BlockedDrainPlay} with a PDB at {@code minAvailable} equal to the replicas. */
class BlockedDrainMinAvailableIT {
  @Test
  void aPdbThatAllowsNoEvictionIsNamedAndRelaxingItCompletesTheReplacement() throws Exception {
    BlockedDrainPlay.play(BlockedDrainScenario.Budget.MIN_AVAILABLE_ALL);
  }
}

package dev.farrier.sandbox.e2e;

import dev.farrier.sandbox.BlockedDrainScenario;
import org.junit.jupiter.api.Test;

/** {@link BlockedDrainPlay} with a PDB at {@code maxUnavailable: 0}; the operator also finds the replacement with docs/operate.md's query in the Temporal UI. */
class BlockedDrainMaxUnavailableIT {
  @Test
  void aPdbThatAllowsNoEvictionIsNamedAndRelaxingItCompletesTheReplacement() throws Exception {
    BlockedDrainPlay.play(BlockedDrainScenario.Budget.MAX_UNAVAILABLE_ZERO);
  }
}

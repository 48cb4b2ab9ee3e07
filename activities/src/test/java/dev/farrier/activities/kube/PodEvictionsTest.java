package dev.farrier.activities.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class PodEvictionsTest {
  @Test
  void readsThePdbNameFromTheEvictionHandlersCauses() {
    assertEquals(Optional.of("inflate"),
        PodEvictions.budgetNameIn("The disruption budget inflate needs 2 healthy pods and has 2 currently"));
    assertEquals(Optional.of("web.pdb-1"),
        PodEvictions.budgetNameIn("The disruption budget web.pdb-1 is still being processed by the server."));
    assertEquals(Optional.empty(), PodEvictions.budgetNameIn("Cannot evict pod as it would violate the pod's disruption budget."));
    assertEquals(Optional.empty(), PodEvictions.budgetNameIn(null));
  }
}

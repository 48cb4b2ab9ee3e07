package dev.farrier.workflows.replacement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Requirement;
import dev.farrier.model.WellKnown;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DisruptionLogLineTest {
  private static final DisruptionCommand COMMAND = new DisruptionCommand("default-abc", "ip-10-0-1-2", "default",
      "i-0abc", DisruptionMethod.REPLACE, "drifted", "image", 3, null, "m5.large", "spot");

  private static NodeClaimRequest claim(List<String> types, List<String> capacityTypes) {
    return new NodeClaimRequest("default-new", "default", "default", types,
        List.of(Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, capacityTypes)), null, Map.of(), null, null, null, null,
        null, null);
  }

  @Test
  void namesFiveTypesThenCountsTheOthers() {
    var replacement = claim(List.of("a", "b", "c", "d", "e", "f", "g", "h"), List.of("spot", "on-demand"));
    assertEquals("disrupting nodeclaim(s) via replace, terminating 1 nodes (3 pods) ip-10-0-1-2/m5.large/spot"
        + " and replacing with node from types a, b, c, d, e and 3 other(s)", DisruptionLogLine.of(COMMAND, replacement));
  }

  @Test
  void saysTheCapacityTypeWhenThereIsOnlyOne() {
    var replacement = claim(List.of("a", "b", "c"), List.of("spot"));
    assertEquals("disrupting nodeclaim(s) via replace, terminating 1 nodes (3 pods) ip-10-0-1-2/m5.large/spot"
        + " and replacing with spot node from types a, b, c", DisruptionLogLine.of(COMMAND, replacement));
  }

  @Test
  void withoutReplacementItIsADelete() {
    assertEquals("disrupting nodeclaim(s) via delete, terminating 1 nodes (3 pods) ip-10-0-1-2/m5.large/spot",
        DisruptionLogLine.of(COMMAND, null));
  }

  @Test
  void unknownInstanceAndCapacityTypesAreEmptyAsInKarpenter() {
    var command = new DisruptionCommand("c", "n", "p", "i", DisruptionMethod.DELETE, "expired", "", 0, null);
    assertEquals("disrupting nodeclaim(s) via delete, terminating 1 nodes (0 pods) n//", DisruptionLogLine.of(command, null));
  }
}

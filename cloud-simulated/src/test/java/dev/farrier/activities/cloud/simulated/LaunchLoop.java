package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.AmiSelectorTerm;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.LaunchRequest;
import dev.farrier.model.WellKnown;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A separate process sharing a state directory: launches {@code count} claims named {@code <prefix>-<n>} (or
 * forever when count is 0, until killed). Used by {@link StateSharedAcrossProcessesTest}.
 */
public final class LaunchLoop {
  private LaunchLoop() {}

  public static void main(String[] args) {
    Path stateDir = Path.of(args[0]);
    String prefix = args[1];
    int count = Integer.parseInt(args[2]);
    SimulatedCloud cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(stateDir));
    for (int n = 0; count == 0 || n < count; n++) {
      cloud.create(request(cloud, prefix + "-" + n));
    }
  }

  static LaunchRequest request(SimulatedCloud cloud, String claim) {
    List<Image> images = cloud.resolveImages(List.of(new AmiSelectorTerm(null, null, null, Map.of(), "al2023@latest")));
    return new LaunchRequest("sandbox", claim, "default", "default", List.of("m5.large"), List.of("on-demand"), List.of(),
        images, Map.of(WellKnown.TAG_OWNER, "farrier", WellKnown.TAG_CLUSTER, "sandbox", WellKnown.TAG_NODECLAIM, claim),
        Map.of(), List.of());
  }
}

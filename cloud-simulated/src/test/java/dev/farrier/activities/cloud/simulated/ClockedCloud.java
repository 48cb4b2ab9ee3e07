package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.AmiSelectorTerm;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The simulated cloud the unit tests drive: on a clock they move by hand (from 2026-01-05 10:00 UTC), instances
 * booting in 2 s and terminating in 5 s, with the images {@code al2023@latest} resolves to for their launches.
 */
record ClockedCloud(MutableClock clock, SimulatedCloudConfig config, SimulatedCloud cloud, List<Image> images) {
  static ClockedCloud start(Path stateDir) {
    var clock = new MutableClock(Instant.parse("2026-01-05T10:00:00Z"));
    var config = SimulatedCloudConfig.defaults(stateDir).withClock(clock).withDelays(Duration.ofSeconds(2), Duration.ofSeconds(5));
    var cloud = new SimulatedCloud(config);
    return new ClockedCloud(clock, config, cloud, cloud.resolveImages(List.of(new AmiSelectorTerm(null, null, null, Map.of(), "al2023@latest"))));
  }
}

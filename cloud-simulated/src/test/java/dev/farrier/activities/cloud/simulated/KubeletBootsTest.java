package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.MutableClock;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.cloud.AmiSelectorTerm;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.LaunchRequest;
import dev.farrier.model.WellKnown;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which instances the simulated kubelet registers a Node for; the registration itself is in SimulatedKubeletIT. */
class KubeletBootsTest {
  private static final String CLUSTER = "sandbox";

  @TempDir
  Path stateDir;

  private MutableClock clock;
  private SimulatedCloud cloud;

  @BeforeEach
  void setUp() {
    clock = new MutableClock(Instant.parse("2026-01-05T10:00:00Z"));
    cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(stateDir).withClock(clock).withDelays(Duration.ofSeconds(2), Duration.ofSeconds(5)));
  }

  private Instance launch(String claim, AmiSelectorTerm images) {
    List<Image> resolved = cloud.resolveImages(List.of(images));
    return cloud.create(new LaunchRequest(CLUSTER, claim, "default", "default", List.of("m5.large"), List.of("on-demand"),
        List.of("us-east-1a"), resolved, Map.of(WellKnown.TAG_OWNER, "farrier", WellKnown.TAG_CLUSTER, CLUSTER,
            WellKnown.TAG_NODECLAIM, claim), Map.of(WellKnown.NODEPOOL_LABEL, "default"), List.of()));
  }

  private KubeletBoots boots() {
    return KubeletBoots.of(cloud.instances(), cloud.amis());
  }

  private static List<String> ids(List<SimulatedInstance> instances) {
    return instances.stream().map(i -> i.instance().id()).toList();
  }

  @Test
  void aRunningInstanceJoinsUnlessItsImageNeverJoins() {
    Instance good = launch("claim-good", new AmiSelectorTerm(null, null, null, Map.of(), "al2023@latest"));
    Instance broken = launch("claim-broken", new AmiSelectorTerm(null, "farrier-sandbox-broken-al2023-*-1.34-*", "self", Map.of(), null));
    assertEquals("farrier-sandbox-broken-al2023-x86_64-1.34-v20251117", cloud.amis().findById(broken.imageId()).orElseThrow().name());
    cloud.registerForeignInstance("m5.large", "us-east-1a", Map.of(WellKnown.TAG_CLUSTER, CLUSTER));
    assertEquals(new KubeletBoots(List.of(), List.of()), boots(), "pending instances boot nothing yet; foreign ones never");

    clock.advance(Duration.ofSeconds(2));
    Instance late = launch("claim-late", new AmiSelectorTerm(null, null, null, Map.of(), "al2023@latest"));
    KubeletBoots boots = boots();
    assertEquals(List.of(good.id()), ids(boots.joining()));
    assertEquals(List.of(broken.id()), ids(boots.neverJoining()));
    assertEquals(StoredInstance.RUNNING, cloud.get(broken.id()).orElseThrow().state(), "a broken image's instance runs");

    clock.advance(Duration.ofSeconds(2));
    assertEquals(List.of(good.id(), late.id()), ids(boots().joining()));
    cloud.delete(CLUSTER, "claim-broken", broken.id());
    assertEquals(List.of(), boots().neverJoining(), "a terminating instance boots nothing");
  }
}

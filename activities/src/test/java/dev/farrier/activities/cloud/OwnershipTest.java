package dev.farrier.activities.cloud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodePoolHash;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OwnershipTest {
  /** Computed in each test, not in a static initializer, so a mutant of launchTags is seen by the tests. */
  private final Map<String, String> MINE = Ownership.launchTags("prod", "default", "default-abc12");

  @Test
  void theTagsFarrierWritesAtLaunchAreFarriers() {
    assertEquals(Optional.empty(), Ownership.problem(MINE, "prod", null));
    assertEquals(Optional.empty(), Ownership.problem(MINE, "prod", "default-abc12"));
    assertTrue(Ownership.owns(MINE, "prod"));
  }

  @Test
  void tagsThatDifferByOneCharacterAreNotFarriers() {
    assertRefused(with(WellKnown.TAG_OWNER, "someone-else"), "prod");
    assertRefused(with(WellKnown.TAG_OWNER, "Farrier"), "prod");
    assertRefused(with(WellKnown.TAG_OWNER, "farrier "), "prod");
    assertRefused(with(WellKnown.TAG_OWNER, "farrie"), "prod");
    assertRefused(with(WellKnown.TAG_CLUSTER, "prod2"), "prod");
    assertRefused(with(WellKnown.TAG_CLUSTER, "Prod"), "prod");
    assertRefused(MINE, "prod ");
    assertEquals(Optional.of("belongs to NodeClaim 'default-abc12', not 'default-abc13'"), Ownership.problem(MINE, "prod", "default-abc13"));
  }

  @Test
  void tagsThatCarryOnlySomeOfFarriersAreNotFarriers() {
    for (String key : MINE.keySet()) {
      Map<String, String> partial = new HashMap<>(MINE);
      partial.remove(key);
      assertRefused(partial, "prod");
      assertRefused(with(key, ""), "prod");
    }
    assertRefused(Map.of(), "prod");
    assertRefused(MINE, null);
  }

  @Test
  void theRefusalSaysWhichTagIsWrong() {
    Map<String, String> noOwner = new HashMap<>(MINE);
    noOwner.remove(WellKnown.TAG_OWNER);
    assertEquals(Optional.of("has no farrier.dev/owner tag: Farrier did not launch it"), Ownership.problem(noOwner, "prod", null));
    assertEquals(Optional.of("has farrier.dev/owner='someone-else', not 'farrier': Farrier did not launch it"),
        Ownership.problem(with(WellKnown.TAG_OWNER, "someone-else"), "prod", null));
    assertEquals(Optional.of("belongs to cluster 'prod', not 'staging'"), Ownership.problem(MINE, "staging", null));
  }

  @Test
  void aNodeClaimIsFarriersOnlyWithItsHashVersion() {
    assertTrue(Ownership.launchedByFarrier(claim(Map.of(WellKnown.NODEPOOL_HASH_VERSION_ANNOTATION, NodePoolHash.VERSION))));
    assertTrue(!Ownership.launchedByFarrier(claim(Map.of(WellKnown.NODEPOOL_HASH_VERSION_ANNOTATION, "v3"))), "Karpenter's");
    assertTrue(!Ownership.launchedByFarrier(claim(Map.of())));
    assertTrue(!Ownership.launchedByFarrier(claim(null)));
  }

  private static NodeClaim claim(Map<String, String> annotations) {
    var claim = new NodeClaim();
    claim.setMetadata(new ObjectMetaBuilder().withName("c").withAnnotations(annotations).build());
    return claim;
  }

  private Map<String, String> with(String key, String value) {
    Map<String, String> tags = new HashMap<>(MINE);
    tags.put(key, value);
    return tags;
  }

  private static void assertRefused(Map<String, String> tags, String cluster) {
    assertTrue(Ownership.problem(tags, cluster, null).isPresent(), "not Farrier's: " + tags + " for " + cluster);
    assertTrue(!Ownership.owns(tags, cluster));
  }
}

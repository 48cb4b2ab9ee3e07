package dev.farrier.activities.cloud;

import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodePoolHash;
import dev.farrier.model.WellKnown;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Whether an instance or a NodeClaim is Farrier's: the one place the ownership rules live. Both clouds refuse to
 * terminate, and list for garbage collection, only instances that pass {@link #problem}; planning, interruption
 * handling and garbage collection act only on claims that pass {@link #launchedByFarrier}.
 *
 * <p>An instance is Farrier's for {@code cluster} only when it carries exactly the tags Farrier writes at launch
 * ({@link #launchTags}): {@code farrier.dev/owner} equal to {@value #OWNER_VALUE}, the cluster tag equal to
 * {@code cluster}, and non-blank NodePool and NodeClaim tags (equal to the NodeClaim when one is named). Equality is
 * exact (case, spaces): another cluster's, another tool's or a hand-tagged instance whose tags differ by one character,
 * or carry only some of them, is not Farrier's.
 */
public final class Ownership {
  public static final String OWNER_VALUE = "farrier";

  private Ownership() {}

  /** The tags that make an instance Farrier's; put last, so no tag of the EC2NodeClass can change them. */
  public static Map<String, String> launchTags(String cluster, String nodePool, String nodeClaim) {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put(WellKnown.TAG_OWNER, OWNER_VALUE);
    tags.put(WellKnown.TAG_CLUSTER, cluster);
    tags.put(WellKnown.TAG_NODEPOOL, nodePool);
    tags.put(WellKnown.TAG_NODECLAIM, nodeClaim);
    return tags;
  }

  /**
   * Why {@code tags} do not prove Farrier launched the instance for {@code cluster} (and, when not null,
   * {@code nodeClaim}); empty when they do.
   */
  public static Optional<String> problem(Map<String, String> tags, String cluster, String nodeClaim) {
    String owner = tags.get(WellKnown.TAG_OWNER);
    if (!OWNER_VALUE.equals(owner)) {
      return Optional.of(owner == null ? "has no " + WellKnown.TAG_OWNER + " tag: Farrier did not launch it"
          : "has " + WellKnown.TAG_OWNER + "='" + owner + "', not '" + OWNER_VALUE + "': Farrier did not launch it");
    }
    if (cluster == null || !cluster.equals(tags.get(WellKnown.TAG_CLUSTER))) {
      return Optional.of("belongs to cluster '" + tags.get(WellKnown.TAG_CLUSTER) + "', not '" + cluster + "'");
    }
    String pool = tags.get(WellKnown.TAG_NODEPOOL);
    if (pool == null || pool.isBlank()) {
      return Optional.of("has no " + WellKnown.TAG_NODEPOOL + " tag: Farrier did not launch it");
    }
    String claim = tags.get(WellKnown.TAG_NODECLAIM);
    if (claim == null || claim.isBlank()) {
      return Optional.of("has no " + WellKnown.TAG_NODECLAIM + " tag: Farrier did not launch it");
    }
    if (nodeClaim != null && !nodeClaim.equals(claim)) {
      return Optional.of("belongs to NodeClaim '" + claim + "', not '" + nodeClaim + "'");
    }
    return Optional.empty();
  }

  public static boolean owns(Map<String, String> tags, String cluster) {
    return problem(tags, cluster, null).isEmpty();
  }

  /**
   * Whether Farrier created the NodeClaim: it stamps every claim it creates with its hash version; Karpenter's and
   * hand-made claims lack it. Only such claims are planned, drained, garbage-collected or their instances terminated.
   */
  public static boolean launchedByFarrier(NodeClaim claim) {
    var annotations = claim.getMetadata().getAnnotations();
    return annotations != null && NodePoolHash.VERSION.equals(annotations.get(WellKnown.NODEPOOL_HASH_VERSION_ANNOTATION));
  }
}

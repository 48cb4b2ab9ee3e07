package dev.farrier.activities.cloud.aws;

import dev.farrier.workflows.model.WellKnown;
import java.util.Map;

/** Tags only the AWS provider writes, and the ownership tags it reads back. */
final class FarrierTags {
  /** On every instance: the launch template it was launched from, so unused templates can be found. */
  static final String LAUNCH_TEMPLATE = "farrier.dev/launch-template";
  static final String OWNER_VALUE = "farrier";

  private FarrierTags() {}

  /** Why {@code tags} do not prove Farrier launched the instance for {@code cluster} (and {@code nodeClaim}); null when they do. */
  static String ownershipProblem(Map<String, String> tags, String cluster, String nodeClaim) {
    String owner = tags.get(WellKnown.TAG_OWNER);
    if (owner == null || owner.isBlank()) {
      return "has no " + WellKnown.TAG_OWNER + " tag: Farrier did not launch it";
    }
    if (!cluster.equals(tags.get(WellKnown.TAG_CLUSTER))) {
      return "belongs to cluster '" + tags.get(WellKnown.TAG_CLUSTER) + "', not '" + cluster + "'";
    }
    if (nodeClaim != null && !nodeClaim.equals(tags.get(WellKnown.TAG_NODECLAIM))) {
      return "belongs to NodeClaim '" + tags.get(WellKnown.TAG_NODECLAIM) + "', not '" + nodeClaim + "'";
    }
    return null;
  }
}

package dev.farrier.workflows.testing;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.PodRef;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.model.LaunchSettings;
import dev.farrier.workflows.replacement.ReplacementInput;
import java.util.List;
import java.util.Map;

/** Small, valid payloads for workflow tests. */
public final class Fixtures {
  private Fixtures() {}

  public static final String CLUSTER = "test-cluster";
  /** Short bounds so timeouts are reached in few retries. */
  public static final LaunchSettings LAUNCH = new LaunchSettings(120, 120);
  public static final List<String> INSTANCE_TYPES =
      List.of("m5.large", "m5a.large", "m6i.large", "c5.xlarge", "c6i.xlarge", "m6a.large", "r5.large");

  public static NodeClaimRequest claim(String name, String nodePool) {
    return new NodeClaimRequest(name, nodePool, "default", INSTANCE_TYPES,
        List.of(Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.of(WellKnown.CAPACITY_ON_DEMAND))),
        Resources.of(1500, 2L << 30, 3), Map.of(WellKnown.NODEPOOL_LABEL, nodePool), List.of(), List.of(),
        "hash-1", "720h", null, List.of(pod("inflate-" + name)));
  }

  public static PodRef pod(String name) {
    return new PodRef("default", name, "uid-" + name);
  }

  /** A drift command for claim {@code nodeClaim} on node {@code node-<nodeClaim>}. */
  public static DisruptionCommand command(String nodeClaim, String method, Long terminationGracePeriodSeconds) {
    return new DisruptionCommand(nodeClaim, FakeNodeClaimActivities.nodeNameOf(nodeClaim), "default",
        FakeNodeClaimActivities.instanceIdOf(nodeClaim), DisruptionMethod.of(method), "drifted", "image ami-old is not ami-new", 3,
        terminationGracePeriodSeconds, "m5.large", "on-demand");
  }

  /**
   * An expiry command for claim {@code nodeClaim}: {@code forceful} as the planner issues it by default, else as a
   * NodePool with {@code farrier.dev/expiry: replace-first} asks.
   */
  public static DisruptionCommand expired(String nodeClaim, String method, Long terminationGracePeriodSeconds,
      boolean forceful) {
    return new DisruptionCommand(nodeClaim, FakeNodeClaimActivities.nodeNameOf(nodeClaim), "default",
        FakeNodeClaimActivities.instanceIdOf(nodeClaim), DisruptionMethod.of(method), "expired",
        "older than expireAfter 720h", 3, terminationGracePeriodSeconds, "m5.large", "on-demand", false, forceful);
  }

  public static ReplacementInput replacement(DisruptionCommand command) {
    return new ReplacementInput(CLUSTER, command, LAUNCH, 2, 30);
  }
}

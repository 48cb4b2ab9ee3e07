package dev.farrier.workflows;

import dev.farrier.model.DisruptionMethod;
import dev.farrier.model.LaunchedInstance;
import java.util.Optional;

/** Reasons of the Kubernetes Events Farrier's workflows record; the sandbox's timeline reads them from kubectl. */
public final class EventReasons {
  private EventReasons() {}

  public static final String LAUNCHED = "Launched";
  public static final String REGISTERED = "Registered";
  public static final String INITIALIZED = "Initialized";
  public static final String LAUNCH_FAILED = "LaunchFailed";

  /** A replacement started (on the Node and its NodeClaim): method, reason and detail. */
  public static final String DISRUPTION_STARTED = "DisruptionStarted";
  /** A replacement finished: the NodeClaim's last Event. */
  public static final String DISRUPTION_COMPLETED = "DisruptionCompleted";
  /** A step failed; the replacement waits for an operator's Retry. */
  public static final String DISRUPTION_FAILED = "DisruptionFailed";
  /** A consolidation checked again before acting no longer stood: the node was left as it was. */
  public static final String DISRUPTION_INVALIDATED = "DisruptionInvalidated";
  /** An operator forced the drain past PodDisruptionBudgets, with the reason. */
  public static final String FORCE_DRAIN = "ForceDrain";
  public static final String DISRUPTION_TAINTED = "DisruptionTainted";
  public static final String CORDONED = "Cordoned";
  public static final String EVICTED = "Evicted";
  public static final String DRAIN_BLOCKED = "DrainBlocked";
  /** The node's instance is gone (terminated or unknown to the cloud): its pods are released, not drained. */
  public static final String INSTANCE_GONE = "InstanceGone";
  public static final String TERMINATED = "Terminated";
  /** A PDB-held pod opted in to surges: its Deployment was restarted so its new pod starts elsewhere first. */
  public static final String SURGE_STARTED = "SurgeStarted";
  /** A PDB-held pod opted in to surges cannot surge safely (the reason says why): the drain waits for the PDB. */
  public static final String SURGE_REFUSED = "SurgeRefused";
  /** A surge's new pod did not become Ready within its Deployment's progress deadline: not surged again. */
  public static final String SURGE_STALLED = "SurgeStalled";
  public static final String REPLACEMENT_ABORTED = "ReplacementAborted";

  /** The node is being interrupted (spot interruption, scheduled change, instance stopping): drained at once. */
  public static final String INTERRUPTED = "Interrupted";
  /** EC2 recommends rebalancing this spot node away (replaced only when its NodePool opts in). */
  public static final String REBALANCE_RECOMMENDED = "RebalanceRecommendation";

  public static final String KIND_NODE = "Node";
  public static final String KIND_NODE_CLAIM = "NodeClaim";
  public static final String NORMAL = "Normal";
  public static final String WARNING = "Warning";

  private static final String DISRUPTION_STARTED_PREFIX = "disrupting via ";

  /** The {@link #DISRUPTION_STARTED} message: {@code disrupting via replace: drifted (detail)}. */
  public static String disruptionStarted(DisruptionMethod method, String reason, String detail) {
    return DISRUPTION_STARTED_PREFIX + method + ": " + reason + (detail == null ? "" : " (" + detail + ")");
  }

  /** The {@link #LAUNCHED} message: {@code launched instance i-0abc (m5.large, us-west-2a, on-demand, ami-0abc)}. */
  public static String launched(LaunchedInstance instance) {
    return "launched instance " + instance.instanceId() + " (" + instance.instanceType() + ", " + instance.zone() + ", "
        + instance.capacityType() + ", " + instance.imageId() + ")";
  }

  /** The {@link #EVICTED} message of a drained pod ({@code namespace/name}); a gone instance's pods are released. */
  public static String evicted(String pod, boolean released) {
    return (released ? "released " : "evicted ") + pod;
  }

  /** The reason word of a {@link #disruptionStarted} message (the activity that records it counts the disruption). */
  public static Optional<String> disruptionReason(String message) {
    if (message == null || !message.startsWith(DISRUPTION_STARTED_PREFIX) || message.indexOf(": ") < 0) {
      return Optional.empty();
    }
    String rest = message.substring(message.indexOf(": ") + 2);
    int end = rest.indexOf(' ');
    String reason = end < 0 ? rest : rest.substring(0, end);
    return reason.isEmpty() ? Optional.empty() : Optional.of(reason);
  }
}

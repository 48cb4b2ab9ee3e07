package dev.farrier.workflows;

import java.util.List;

/**
 * Stable {@code ApplicationFailure} types. Activities raise them, workflows switch on {@code getType()}, and the
 * permanent ones are never retried (see {@link ActivityStubs}).
 */
public final class FailureTypes {
  private FailureTypes() {}

  /** No offering (instance type x zone x capacity type) has capacity now. Permanent for this launch. */
  public static final String INSUFFICIENT_CAPACITY = "InsufficientCapacity";
  /** The EC2NodeClass resolves no image, subnet or security group. Permanent until a user fixes it. */
  public static final String NODE_CLASS_NOT_READY = "NodeClassNotReady";
  /**
   * The EC2NodeClass exists but the status loop has not resolved it yet (no Ready condition): a class created with
   * its NodePool and pods. Retried under the activity's policy; the next status pass, seconds away, settles it.
   */
  public static final String NODE_CLASS_NOT_RESOLVED = "NodeClassNotResolved";
  /** The instance lacks Farrier's ownership tags or names another cluster or claim: never touch it. */
  public static final String NOT_OWNED = "NotOwned";
  /** The request itself is malformed; retrying the same input cannot help. */
  public static final String INVALID_REQUEST = "InvalidRequest";
  /** The object an activity must act on is gone (a NodeClaim, a Node, an instance). */
  public static final String NOT_FOUND = "NotFound";
  /** The cloud API throttled the call; retried under the activity's policy. */
  public static final String THROTTLED = "Throttled";

  /** Raised by workflows, not activities. */
  public static final String REGISTRATION_TIMEOUT = "RegistrationTimeout";
  public static final String INITIALIZATION_TIMEOUT = "InitializationTimeout";
  public static final String LAUNCH_FAILED = "LaunchFailed";
  public static final String REPLACEMENT_LAUNCH_FAILED = "ReplacementLaunchFailed";
  public static final String REPLACEMENT_FAILED = "ReplacementFailed";

  /** No replacement can hold the node's pods (limits, no instance type, no capacity): the node is left in service. */
  public static final String NO_REPLACEMENT_POSSIBLE = "NoReplacementPossible";

  /** A fleet upgrade asks for something no rollout can do (unknown NodePool, a target that resolves nothing, ...). */
  public static final String INVALID_UPGRADE = "InvalidUpgrade";
  /** Another running fleet upgrade owns one of the NodePools. */
  public static final String ROLLOUT_CONFLICT = "RolloutConflict";
  /** An Update its validator refused: the workflow's state is untouched ({@link Refusals}). */
  public static final String REFUSED = Refusals.Refused.class.getName();

  /** Types no activity retry can fix. */
  public static final List<String> NON_RETRYABLE = List.of(INSUFFICIENT_CAPACITY, NODE_CLASS_NOT_READY, NOT_OWNED, INVALID_REQUEST,
      INVALID_UPGRADE, ROLLOUT_CONFLICT);
}

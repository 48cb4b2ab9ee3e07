package dev.farrier.workflows.activities;

import dev.farrier.model.LaunchedInstance;
import dev.farrier.model.NodeClaimRequest;
import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * The NodeClaim lifecycle: create, launch, register, initialize, terminate, delete. A step records the Events of its
 * request ({@link AwaitNodeRequest#events()}, {@link TerminateInstanceRequest#events()}, {@link NodeRef#events()},
 * {@link NodeClaimRef#recordLaunched()}) once it has done its work, best effort: an Event that cannot be recorded is
 * logged and never fails the step (a retried step records it again, which bumps the Event's count).
 */
@ActivityInterface
public interface NodeClaimActivities {
  /** Creates the NodeClaim (with the termination finalizer). Idempotent: an existing claim of that name is kept. */
  @ActivityMethod
  void createNodeClaim(NodeClaimRequest request);

  /**
   * Launches the claim's instance and records it in the claim's status (providerID, imageID, Launched).
   * Idempotent: the instance is tagged with the claim's name and looked up before creating, so a retry after a
   * lost response returns the same instance. Fails with type {@code InsufficientCapacity} when no offering has
   * capacity, {@code NodeClassNotReady} when the EC2NodeClass resolves no image or its status lacks subnets, security
   * groups or an instance profile (both non-retryable).
   */
  @ActivityMethod
  LaunchedInstance launchInstance(NodeClaimRef request);

  /** Waits (heartbeating) until a Node with the claim's providerID exists; returns its name. Read-only. */
  @ActivityMethod
  String awaitRegistered(AwaitNodeRequest request);

  /**
   * Registers the node to the claim: claim labels and the termination finalizer on the Node, the
   * {@code karpenter.sh/unregistered} taint removed, claim status nodeName and Registered; counts the registration for
   * its NodePool's {@code NodeRegistrationHealthy}. Idempotent (patches; the count is kept once per claim).
   */
  @ActivityMethod
  void registerNode(AwaitNodeRequest request);

  /**
   * Counts a launch that failed to launch or register for its NodePool's {@code NodeRegistrationHealthy}, which turns
   * False once half of the last launches failed. Idempotent: the count is kept once per claim, the condition patched.
   */
  @ActivityMethod
  void recordRegistrationFailure(RegistrationFailure failure);

  /**
   * Waits (heartbeating) until the node is Ready and its startup taints are gone, then labels it
   * {@code karpenter.sh/initialized=true} and sets the claim's Initialized condition. Idempotent.
   */
  @ActivityMethod
  void awaitInitialized(AwaitNodeRequest request);

  /**
   * Terminates the claim's instance after checking Farrier's ownership tags (type {@code NotOwned},
   * non-retryable, when they are missing or name another cluster or claim). An instance already shutting down,
   * terminated or not found counts as done, so retries are safe.
   */
  @ActivityMethod
  InstanceState terminateInstance(TerminateInstanceRequest request);

  /**
   * The instance's state now: its EC2 state name, or {@link InstanceState#NOT_FOUND} when the cloud says it does not
   * know the id. One read, no wait; an error reading it fails the activity (it proves nothing). Read-only: it records
   * no Events (the waits poll it).
   */
  InstanceState instanceState(TerminateInstanceRequest request);

  /** Waits (heartbeating) until the instance is terminated or gone. Read-only. */
  @ActivityMethod
  InstanceState awaitInstanceTerminated(TerminateInstanceRequest request);

  /**
   * Terminates the claim's instance as {@link #terminateInstance} does (ownership checked first, {@code NotOwned}
   * non-retryable) and waits (heartbeating) until it is terminated or gone: one step for a replacement past its point
   * of no return. Idempotent: an instance already shutting down, terminated or not found is terminated again as a
   * no-op, so a retry (Temporal's, or an operator's Retry of the failed step) starts over safely.
   */
  @ActivityMethod
  InstanceState terminateInstanceAndWait(TerminateInstanceRequest request);

  /** Removes the termination finalizer from the Node named and deletes it. Idempotent: a missing node is done. */
  @ActivityMethod
  void deleteNode(NodeRef request);

  /** Removes the termination finalizer from the claim and deletes it. Idempotent: a missing claim is done. */
  @ActivityMethod
  void deleteNodeClaim(NodeClaimRef request);

  /**
   * Deletes the Node (when the request names one) and then the NodeClaim, each as {@link #deleteNode} and
   * {@link #deleteNodeClaim} do: one step to finalize a replacement. Idempotent: an object already gone is done, so a
   * retry after either delete finishes the other.
   */
  @ActivityMethod
  void deleteNodeAndClaim(NodeRef request);
}

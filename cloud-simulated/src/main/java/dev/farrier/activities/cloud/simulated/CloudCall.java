package dev.farrier.activities.cloud.simulated;

import java.time.Instant;

/**
 * One mutating call on the simulated cloud, as the call log records it. Reads (get, list, instanceTypes) are not
 * recorded: the simulated kubelet lists several times a second and would drown the calls worth asserting on.
 *
 * @param instanceId empty when the call touched no instance (e.g. a create that found no capacity)
 * @param nodeClaim  the NodeClaim the call named, empty when none
 * @param detail     human-readable outcome (instance type, zone and capacity type launched, why it was refused, ...)
 */
public record CloudCall(Instant time, Operation operation, String instanceId, String nodeClaim, String detail) {
  public enum Operation {
    /** create launched a new instance. */
    CREATE,
    /** create found the claim's instance already launched and returned it (idempotent retry). */
    CREATE_EXISTING,
    /** create failed (insufficient capacity, invalid request); nothing launched. */
    CREATE_FAILED,
    /** delete started terminating a pending or running instance. */
    TERMINATE,
    /** delete found the instance already shutting down, terminated or unknown; nothing changed. */
    TERMINATE_ALREADY_DONE,
    /** delete refused: the instance lacks Farrier's ownership tags for the cluster/claim. Nothing changed. */
    TERMINATE_REFUSED,
    /** a test registered an instance Farrier did not launch. */
    REGISTER_FOREIGN,
    /** a test exhausted an offering or gave its capacity back (not announced; a launch finds it). */
    SET_OFFERING_AVAILABILITY,
    /**
     * an offering was marked unavailable for a while: after a spot interruption, or by a create that found it
     * exhausted (the call then names the claim and precedes its CREATE or CREATE_FAILED).
     */
    MARK_UNAVAILABLE,
    /** the sandbox or a test interrupted a spot instance: it is reclaimed at the deadline in the detail. */
    SPOT_INTERRUPTION,
    /**
     * resolveInstanceProfile created Farrier's instance profile for a node class's role or swapped its role, or
     * refused to touch a profile of that name without Farrier's tags (detail says which).
     */
    INSTANCE_PROFILE_PUT,
    /** a test or the sandbox created an IAM role. */
    CREATE_ROLE,
    /** a test registered an instance profile of its own (what a user's {@code spec.instanceProfile} names). */
    REGISTER_INSTANCE_PROFILE,
    /** a test or the sandbox added a subnet to the cluster's VPC. */
    ADD_SUBNET,
    /** a test or the sandbox injected an API fault (throttling, server errors, slow calls) or cleared them. */
    INJECT_FAULT,
    /** an API call failed (throttling, server error) or answered late because of an injected fault. */
    FAULT,
    /** a test or the sandbox created a capacity reservation (or a Capacity Block). */
    CREATE_CAPACITY_RESERVATION,
    /** a test or the sandbox ended a Capacity Block: its instances are reclaimed at the time in the detail. */
    CAPACITY_BLOCK_END
  }
}

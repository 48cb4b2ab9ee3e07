package dev.farrier.workflows.activities;

/**
 * A launch of a NodePool's claim that failed before its node registered, for the pool's {@code NodeRegistrationHealthy}
 * condition ({@link NodeClaimActivities#recordRegistrationFailure}).
 *
 * @param launched true when the instance launched and its node did not register in time; false when the launch
 *                 itself failed ({@code reason} and {@code message} then say how)
 * @param reason   the failure's type, as the launch workflow ends with it
 * @param message  why, in words
 */
public record RegistrationFailure(String cluster, String nodePool, String nodeClaim, boolean launched, String reason,
    String message) {}

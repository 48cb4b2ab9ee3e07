package dev.farrier.workflows.activities;

/**
 * Input of {@link NodeActivities#drainStep}. With {@code bypassPdb} (only once the NodePool's
 * terminationGracePeriod has expired) the remaining pods are deleted instead of evicted.
 */
public record DrainRequest(String cluster, String nodeName, String nodeClaim, boolean bypassPdb) {}

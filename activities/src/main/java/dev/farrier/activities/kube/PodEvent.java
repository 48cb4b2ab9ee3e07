package dev.farrier.activities.kube;

/**
 * A core/v1 Event about a Pod, in the pod's namespace.
 *
 * @param type   {@code Normal} or {@code Warning}
 * @param reason UpperCamelCase, e.g. {@code FailedScheduling}
 */
public record PodEvent(String namespace, String podName, String podUid, String type, String reason, String message) {}

package dev.farrier.workflows.activities;

/**
 * A Kubernetes Event on a Node or NodeClaim ({@code kind}), so {@code kubectl describe} and the sandbox's timeline
 * show what Farrier did. {@code type} is Normal or Warning.
 */
public record EventRequest(String cluster, String kind, String name, String type, String reason, String message) {}

package dev.farrier.workflows.activities;

/** Names a Node (and the claim it belongs to, for Events and logs). */
public record NodeRef(String cluster, String nodeName, String nodeClaim) {}

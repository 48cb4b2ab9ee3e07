package dev.farrier.workflows.activities;

/** Names a NodeClaim in a cluster; input of the NodeClaim activities that need nothing else. */
public record NodeClaimRef(String cluster, String nodeClaim) {}

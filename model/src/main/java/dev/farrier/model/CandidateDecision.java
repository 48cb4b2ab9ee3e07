package dev.farrier.model;

/**
 * Why a node was or was not disrupted in one planning round: the operator's answer to "why is my node (not)
 * being replaced". {@code disrupt} is true for the nodes a command was issued for.
 */
public record CandidateDecision(String nodeClaim, String nodeName, String nodePool, boolean disrupt, String reason) {}

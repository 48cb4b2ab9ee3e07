package dev.farrier.workflows.provisioning;

import dev.farrier.model.LaunchedInstance;

/** A NodeClaim whose node registered and initialized. */
public record LaunchedNode(LaunchedInstance instance, String nodeName) {}

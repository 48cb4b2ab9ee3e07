package dev.farrier.workflows.reconciler;

import dev.farrier.model.Freeze;

/**
 * Input of the reconciler's {@code Freeze} and {@code Unfreeze} Updates.
 *
 * @param nodePool null for the whole cluster
 * @param reason   why (required to freeze: it is what everyone sees)
 * @param by       who asks
 */
public record FreezeRequest(String nodePool, String reason, String by) {}

package dev.farrier.planner;

/**
 * One of a Node's {@code status.conditions} as node repair reads it ({@link Repair}).
 *
 * @param type                 e.g. {@code Ready}, {@code StorageReady}
 * @param status               {@code True}, {@code False} or {@code Unknown}
 * @param lastTransitionMillis its {@code lastTransitionTime} in epoch millis, null when the Node gives none
 */
public record NodeConditionView(String type, String status, Long lastTransitionMillis) {}

package dev.farrier.workflows.replacement;

/**
 * The node is going away whatever Farrier does (a spot interruption warning, a scheduled retirement, the instance
 * stopping): the replacement drains it at once and lets its replacement launch in parallel.
 *
 * @param reason what AWS announced ({@code SpotInterruption}, {@code ScheduledChange}, {@code InstanceStateChange});
 *               becomes the replacement's {@code FarrierReason}
 * @param detail the event in words, for the node's Event
 */
public record Interruption(String reason, String detail) {}

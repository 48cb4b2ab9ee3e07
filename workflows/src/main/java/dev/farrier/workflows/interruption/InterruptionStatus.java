package dev.farrier.workflows.interruption;

import java.util.List;

/**
 * The interruption workflow's query result.
 *
 * @param recentActions the last few things it did, newest last ("started disrupt/x for SpotInterruption i-...")
 */
public record InterruptionStatus(String queue, InterruptionCounts counts, List<String> recentActions) {}

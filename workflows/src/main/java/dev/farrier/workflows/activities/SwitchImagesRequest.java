package dev.farrier.workflows.activities;

import dev.farrier.model.AmiTerm;
import java.util.List;

/**
 * Input of {@link RolloutActivities#switchImages} and {@link RolloutActivities#awaitImages}.
 *
 * @param forward        true when switching to the target (the previous terms are then kept in an annotation), false
 *                       when a rollback writes the previous terms back (the annotation is removed)
 * @param amiFamily      the {@code spec.amiFamily} written with the terms (null removes it)
 * @param expectedImages what the terms resolve to: the status the wait expects
 */
public record SwitchImagesRequest(String cluster, String workflowId, String nodeClass, List<AmiTerm> terms, String amiFamily, boolean forward,
    List<String> expectedImages) {}

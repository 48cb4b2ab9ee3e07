/**
 * The Kubernetes Events activities record beyond their own use case's: the Events a workflow step asks for
 * ({@link dev.farrier.activities.events.StepEvents}) and planning rounds' Events, at most once per window.
 */
package dev.farrier.activities.events;

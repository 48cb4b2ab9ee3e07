/**
 * The chaos soak's invariant monitor (issue 43): it reads the cloud, the API server and Temporal's visibility from
 * outside the worker and says, observation by observation, which of the promises in docs/SAFETY.md ("The invariant
 * monitor") a fleet under faults has broken: the checks ({@link dev.farrier.sandbox.chaos.InvariantMonitor}) and the
 * reading of observations, with a watch of every pod change ({@link dev.farrier.sandbox.chaos.ObservationCollector}).
 * The harness that observes every second while it injects faults, and writes the report, lives beside them.
 */
package dev.farrier.sandbox.chaos;

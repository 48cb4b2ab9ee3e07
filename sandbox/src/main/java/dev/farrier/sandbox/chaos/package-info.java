/**
 * The chaos soak's invariant monitor (issue 43): it reads the cloud and the API server from outside the worker and
 * says, observation by observation, which of the promises in docs/SAFETY.md a fleet under faults has broken. Built so
 * far: the checks ({@link dev.farrier.sandbox.chaos.InvariantMonitor}) and the reading of one observation from the
 * simulated cloud, the API server and Temporal ({@link dev.farrier.sandbox.chaos.ObservationCollector}); the harness
 * that observes every second while it injects faults, and writes the report, comes next.
 */
package dev.farrier.sandbox.chaos;

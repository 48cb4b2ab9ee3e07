/**
 * The chaos soak's invariant monitor (issue 43): it reads the cloud and the API server from outside the worker and
 * says, observation by observation, which of the promises in docs/SAFETY.md a fleet under faults has broken. This is
 * its first part, the checks themselves on what one observation holds; the harness that collects observations every
 * second, injects the faults and writes the report comes next.
 */
package dev.farrier.sandbox.chaos;

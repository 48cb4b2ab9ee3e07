/**
 * The node-level steps of a disruption: the disrupted taint, cordon, the drain (its pod rules and order), marking an
 * abort, and recording the Events a step asks for.
 */
package dev.farrier.activities.drain;

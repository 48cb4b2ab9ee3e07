/**
 * Disruption planning and what keeps it informed: the disruption snapshot (drift, expiry, consolidation, repair), the
 * replacement's plan, a round's effects (conditions, Events, metrics), the pod event times and the replacements in
 * flight. Builds on provisioning: consolidation and replacement plan as provisioning does.
 */
package dev.farrier.activities.disruption;

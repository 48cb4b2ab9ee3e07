/** The planning activity: one Temporal interface, each method handed to the use case that plans it. */
package dev.farrier.activities.planning;

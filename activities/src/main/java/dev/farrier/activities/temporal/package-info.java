/** What the activities share toward Temporal: typed failures with stable types, and heartbeat polling for await* steps. */
package dev.farrier.activities.temporal;

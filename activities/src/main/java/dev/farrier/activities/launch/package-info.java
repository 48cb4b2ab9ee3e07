/**
 * The NodeClaim lifecycle: create the claim, launch its instance through the cloud, await registration and
 * initialization, terminate the instance and delete the Node and claim.
 */
package dev.farrier.activities.launch;

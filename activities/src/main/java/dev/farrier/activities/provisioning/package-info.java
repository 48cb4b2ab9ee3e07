/**
 * Provisioning planning: a batch's pending pods, the NodePools that can be planned and the nodes and claims that already
 * hold room, read into the provisioning planner's snapshot; the pods that fit nowhere get an Event.
 */
package dev.farrier.activities.provisioning;

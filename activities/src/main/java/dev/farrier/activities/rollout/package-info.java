/**
 * Fleet upgrades: NodePool ownership, switching and awaiting an EC2NodeClass's images, the health and workloads a
 * rollout's gates watch.
 */
package dev.farrier.activities.rollout;

/**
 * Fleet upgrades: NodePool ownership, switching and awaiting an EC2NodeClass's images, the health and workloads a
 * rollout's gates watch, and a rollout's next batch ({@link dev.farrier.activities.rollout.RolloutPlanning}).
 */
package dev.farrier.activities.rollout;

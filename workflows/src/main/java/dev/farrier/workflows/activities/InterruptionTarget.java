package dev.farrier.workflows.activities;

import dev.farrier.model.DisruptionCommand;

/**
 * What an interrupted instance is to Farrier.
 *
 * @param instanceId           the instance the notice named
 * @param command              the replacement to start (reason = the notice's kind, method {@code replace}); null
 *                             when no NodeClaim Farrier launched has this instance: the notice is not Farrier's
 * @param rebalanceReplacement the NodePool opted in to replacing nodes on a rebalance recommendation
 *                             ({@code farrier.dev/rebalance-replacement: "true"})
 * @param zone                 the instance's zone (with {@code command.instanceType/capacityType}, the offering)
 */
public record InterruptionTarget(String instanceId, DisruptionCommand command, boolean rebalanceReplacement, String zone) {
  public boolean farriers() {
    return command != null;
  }
}

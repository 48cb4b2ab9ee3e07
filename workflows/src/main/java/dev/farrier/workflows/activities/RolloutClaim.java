package dev.farrier.workflows.activities;

import dev.farrier.model.ReconcilerSettings;
import dev.farrier.model.AmiTerm;
import java.util.List;

/**
 * What {@link RolloutActivities#claim} found and took.
 *
 * @param nodePools       every NodePool of the EC2NodeClass, now owned by the rollout
 * @param previousTerms   the class's {@code amiSelectorTerms} before the rollout (what a rollback writes back)
 * @param previousAmiFamily the class's {@code spec.amiFamily} before the rollout (null when unset)
 * @param previousImages  what they resolve to now (sorted)
 * @param targetAmiFamily the {@code spec.amiFamily} written with the target's terms: the family an alias implied
 *                        is written out when the target is no alias (an EC2NodeClass without an alias must name its
 *                        family)
 * @param targetImages    what the target's terms resolve to (sorted)
 * @param settings        the worker's launch and drain settings, for the replacements the rollout starts
 */
public record RolloutClaim(
    List<String> nodePools,
    String nodeClass,
    List<AmiTerm> previousTerms,
    String previousAmiFamily,
    List<String> previousImages,
    List<AmiTerm> targetTerms,
    String targetAmiFamily,
    List<String> targetImages,
    ReconcilerSettings settings) {
  public RolloutClaim {
    nodePools = List.copyOf(nodePools);
    previousTerms = List.copyOf(previousTerms);
    previousImages = List.copyOf(previousImages);
    targetTerms = List.copyOf(targetTerms);
    targetImages = List.copyOf(targetImages);
  }

  /** The class already selects the target: nothing to switch, and nothing to switch back. */
  public boolean alreadyOnTarget() {
    return previousTerms.equals(targetTerms) && java.util.Objects.equals(previousAmiFamily, targetAmiFamily);
  }
}

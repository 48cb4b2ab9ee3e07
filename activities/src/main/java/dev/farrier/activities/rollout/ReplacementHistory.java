package dev.farrier.activities.rollout;

import java.util.List;

/**
 * How long the recent replacements of some NodePools took: the closed {@code disrupt/<nodeclaim>} workflows that
 * replaced their node, start to close, in seconds (Temporal's visibility in the worker). An implementation answers
 * within a few seconds (well under the preview's minute) and empty when it cannot tell: a preview then says
 * "no history" rather than fail.
 */
@FunctionalInterface
public interface ReplacementHistory {
  List<Long> durationsSeconds(List<String> nodePools);
}

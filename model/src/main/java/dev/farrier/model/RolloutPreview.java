package dev.farrier.model;

import java.util.List;

/**
 * What a fleet upgrade would do, computed from the cluster, the cloud and the fleet's own replacement history without
 * changing anything ({@code farrier upgrade --dry-run}, or {@code farrier upgrade preview <id>} for what a running
 * rollout has left).
 *
 * @param rollout      the rollout's workflow id ({@code upgrade/<nodepools>/<target>}): the one the same flags would start,
 *                     or the running one previewed
 * @param running      a preview of what a running rollout has left (its canary may be done, {@code inFlight} replaced now)
 * @param nodePools    the NodePools it rolls
 * @param nodeClass    their EC2NodeClass
 * @param target       the target as given ({@code --ami} text or {@code k8s-<version>})
 * @param targetImages the images the target resolves to, as the rollout resolves them
 * @param rolling      after the canary, rolling slots of {@code slots} replacements instead of batches
 * @param slots        after the canary, the nodes of a batch (or the replacements in flight, rolling)
 * @param inFlight     the running rollout's replacements in flight now; empty for a rollout not started
 * @param batches      the canary and the batches (rolling: waves of {@code slots}) the planner gives in this order
 * @param held         nodes to replace that no batch takes now (do-not-disrupt, an operator's abort mark, not initialized),
 *                     each with why; the rollout waits for them
 * @param total        nodes to replace, in flight and held included
 * @param estimate     how long it would take, from the history of these NodePools' replacements
 * @param notStarting  why the real run would move nothing (nothing to replace), null when it would
 * @param frozen       the change freeze that holds the NodePools now (no batch starts until it is lifted), null when none
 */
public record RolloutPreview(String rollout, boolean running, List<String> nodePools, String nodeClass, String target,
    List<String> targetImages, boolean rolling, int canary, int slots, List<PreviewNode> inFlight, List<PreviewBatch> batches,
    List<PreviewNode> held, int total, PreviewEstimate estimate, String notStarting, String frozen) {
  public RolloutPreview {
    nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
    targetImages = targetImages == null ? List.of() : List.copyOf(targetImages);
    inFlight = inFlight == null ? List.of() : List.copyOf(inFlight);
    batches = batches == null ? List.of() : List.copyOf(batches);
    held = held == null ? List.of() : List.copyOf(held);
  }

  /**
   * One batch of the preview.
   *
   * @param number 1 for the first (the canary when {@code canary})
   */
  public record PreviewBatch(int number, boolean canary, List<PreviewNode> nodes) {
    public PreviewBatch {
      nodes = List.copyOf(nodes);
    }
  }

  /**
   * One node to replace.
   *
   * @param imageBefore      its NodeClaim's {@code status.imageID}
   * @param imageBeforeName  that image's name, null when the cloud no longer knows it
   * @param imageAfter       the target image its replacement gets (the newest target image of its architecture)
   * @param holds            what will hold its drain: PodDisruptionBudgets, do-not-disrupt pods
   * @param why              why it is replaced now or waits, in the planner's words
   */
  public record PreviewNode(String nodeClaim, String node, String nodePool, String instanceType, String imageBefore,
      String imageBeforeName, String imageAfter, String imageAfterName, List<PreviewHold> holds, String why) {
    public PreviewNode {
      holds = holds == null ? List.of() : List.copyOf(holds);
    }
  }

  /**
   * Something that will hold a node's drain, and for how long at today's pace.
   *
   * @param kind  {@code PodDisruptionBudget} or {@code do-not-disrupt}
   * @param name  namespace/name of the PDB or the pod
   * @param until how long, as far as the cluster tells: "until its pods' owners act", "until the pod ends", ...
   */
  public record PreviewHold(String kind, String name, String until) {}

  /**
   * How long the rollout would take.
   *
   * @param samples      closed replacements of these NodePools it learnt from (0: no history)
   * @param p50Seconds   their median duration, null without history
   * @param p90Seconds   their 90th percentile, null without history
   * @param totalSeconds the estimate, null without history
   * @param basis        how it was computed, in words
   */
  public record PreviewEstimate(int samples, Long p50Seconds, Long p90Seconds, Long totalSeconds, String basis) {}
}

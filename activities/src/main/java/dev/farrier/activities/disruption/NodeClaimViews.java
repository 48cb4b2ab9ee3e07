package dev.farrier.activities.disruption;

import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.provisioning.NodePoolViews;
import dev.farrier.activities.views.PodViews;
import dev.farrier.activities.views.ProviderIds;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.NodeClaimView;
import dev.farrier.planner.NodeConditionView;
import dev.farrier.planner.PodsOnNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A NodeClaim with its Node and the pods bound there, as the disruption planner sees it ({@link NodeClaimView}): what
 * it runs, whether a replacement holds it, its conditions and the node's.
 */
final class NodeClaimViews {
  private static final Logger log = LoggerFactory.getLogger(NodeClaimViews.class);

  private NodeClaimViews() {}

  static String nodeName(NodeClaim claim) {
    return claim.getStatus() == null ? null : claim.getStatus().nodeName();
  }

  /** The Node's conditions with their lastTransitionTime, node repair's input; none without a Node. */
  static List<NodeConditionView> nodeConditions(Node node) {
    if (node == null || node.getStatus() == null || node.getStatus().getConditions() == null) {
      return List.of();
    }
    return node.getStatus().getConditions().stream().map(c -> new NodeConditionView(c.getType(), c.getStatus(),
        c.getLastTransitionTime() == null ? null : OffsetDateTime.parse(c.getLastTransitionTime()).toInstant().toEpochMilli())).toList();
  }

  /**
   * The claim's view; {@code activeReplacements} the claims a replacement holds, asked of {@code replacements} again
   * for a tainted node's claim that is not among them.
   */
  static NodeClaimView of(NodeClaim claim, Node node, List<Pod> podsOnNode, Set<String> activeReplacements,
      ReplacementTracker replacements) {
    var meta = claim.getMetadata();
    var status = Optional.ofNullable(claim.getStatus());
    var conditions = status.map(NodeClaimStatus::conditionsOrEmpty).orElse(List.of());
    Map<String, String> nodeLabels = node == null || node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
    Map<String, String> nodeAnnotations = node == null || node.getMetadata().getAnnotations() == null ? Map.of() : node.getMetadata().getAnnotations();
    Map<String, String> claimAnnotations = meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
    boolean tainted = node != null && node.getSpec().getTaints() != null
        && node.getSpec().getTaints().stream().anyMatch(t -> WellKnown.DISRUPTED_TAINT_KEY.equals(t.getKey()));
    boolean replacementActive = activeReplacements.contains(meta.getName()) || (tainted && replacements.active(meta.getName()));
    if (tainted && !replacementActive) {
      // Left by a replacement that is gone: plan the node again (a new replacement converges from where it is); it still
      // counts against its NodePool's budget.
      log.info("disrupted taint without a running replacement, planning again nodeclaim={} node={}", meta.getName(),
          node.getMetadata().getName());
    }
    var pods = node == null ? PodsOnNode.NONE : PodsOnNode.of(podsOnNode.stream().map(PodViews::of).toList());
    Map<String, String> requirementLabels = new LinkedHashMap<>();
    claim.getSpec().requirementsOrEmpty().stream().filter(r -> "In".equals(r.operator()) && r.values() != null && r.values().size() == 1)
        .forEach(r -> requirementLabels.put(r.key(), r.values().getFirst()));
    Long drifted = Conditions.find(conditions, NodeClaimStatus.DRIFTED).filter(c -> c.isTrue())
        .map(c -> OffsetDateTime.parse(c.lastTransitionTime()).toInstant().toEpochMilli()).orElse(null);
    return new NodeClaimView(
        meta.getName(),
        meta.getLabels().get(WellKnown.NODEPOOL_LABEL),
        claim.getSpec().nodeClassRef() == null ? null : claim.getSpec().nodeClassRef().name(),
        nodeName(claim),
        ProviderIds.instanceId(status.map(NodeClaimStatus::providerID).orElse(null)),
        status.map(NodeClaimStatus::imageID).orElse(null),
        nodeLabels.getOrDefault(WellKnown.ARCH_LABEL, requirementLabels.get(WellKnown.ARCH_LABEL)),
        claimAnnotations.get(WellKnown.NODEPOOL_HASH_ANNOTATION),
        nodeLabels.get(WellKnown.CAPACITY_TYPE_LABEL),
        nodeLabels.get(WellKnown.INSTANCE_TYPE_LABEL),
        nodeLabels.get(WellKnown.ZONE_LABEL),
        Conditions.isTrue(conditions, NodeClaimStatus.REGISTERED),
        Conditions.isTrue(conditions, NodeClaimStatus.INITIALIZED),
        meta.getDeletionTimestamp() != null || (node != null && node.getMetadata().getDeletionTimestamp() != null),
        tainted,
        nodeAnnotations.containsKey(WellKnown.FARRIER_ABORTED_ANNOTATION) || claimAnnotations.containsKey(WellKnown.FARRIER_ABORTED_ANNOTATION),
        "true".equals(claimAnnotations.get(WellKnown.DO_NOT_DISRUPT_ANNOTATION)) || "true".equals(nodeAnnotations.get(WellKnown.DO_NOT_DISRUPT_ANNOTATION)),
        OffsetDateTime.parse(meta.getCreationTimestamp()).toInstant().toEpochMilli(),
        drifted,
        claim.getSpec().expireAfter(),
        NodePoolViews.seconds(claim.getSpec().terminationGracePeriod()),
        pods,
        replacementActive,
        nodeAnnotations.containsKey(WellKnown.REBALANCE_RECOMMENDED_ANNOTATION));
  }
}

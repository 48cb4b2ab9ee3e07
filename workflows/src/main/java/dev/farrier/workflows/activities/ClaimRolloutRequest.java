package dev.farrier.workflows.activities;

import dev.farrier.model.AmiTerm;
import java.util.List;

/**
 * Input of {@link RolloutActivities#claim}: the NodePools (or their EC2NodeClass) and the target: its terms, or (terms
 * empty) the Kubernetes version whose EKS-optimized images of the class's family to roll to.
 */
public record ClaimRolloutRequest(String cluster, String workflowId, List<String> nodePools, String nodeClass, List<AmiTerm> targetTerms,
    String kubernetesVersion) {}

package dev.farrier.workflows.upgrade;

import dev.farrier.model.AmiTerm;
import dev.farrier.workflows.activities.ClaimRolloutRequest;
import dev.farrier.workflows.activities.PreviewRolloutRequest;
import java.util.List;

/**
 * Input of {@link NodePoolUpgradeWorkflow}, as {@code farrier upgrade} builds it.
 *
 * @param nodePools          the NodePools to roll (every NodePool of their EC2NodeClass must be named); empty when
 *                           {@code nodeClass} is given
 * @param nodeClass          roll every NodePool of this EC2NodeClass; null when {@code nodePools} are named
 * @param target             the AMI to roll to; null when {@code kubernetesVersion} is given
 * @param kubernetesVersion  roll to the EKS-optimized images of the class's AMI family for this Kubernetes version
 *                           ({@code 1.35}); null when {@code target} is given
 * @param batchSize          after the canary, how many nodes a batch replaces ({@code 2} or {@code 25%})
 * @param canary             how many nodes the first batch replaces
 * @param soakSeconds        how long a batch's new nodes and moved pods (with {@code rolling}, one replacement's) must stay
 *                           healthy before the next batch (or before its slot is refilled)
 * @param gateTimeoutSeconds how long a batch's new nodes and moved pods may take to become Ready
 * @param approvalRequired   wait for an operator's {@code Approve} after the canary passed its gate
 * @param maxFailures        node replacements that may fail before the rollout stops (0: the first failure stops it)
 * @param rolling            after the canary, keep up to a batch of replacements in flight and start the next one as
 *                           soon as one has passed its own gate, instead of waiting for a whole batch and its gate;
 *                           false (and absent from rollouts started before the option) rolls batch by batch
 * @param requestedBy        who started it (a CI job, a user), shown in its progress
 * @param state              null for a new rollout; what a rollout carries across continue-as-new
 */
public record UpgradeInput(
    String cluster,
    List<String> nodePools,
    String nodeClass,
    AmiTarget target,
    String kubernetesVersion,
    String batchSize,
    int canary,
    long soakSeconds,
    long gateTimeoutSeconds,
    boolean approvalRequired,
    int maxFailures,
    boolean rolling,
    String requestedBy,
    UpgradeState state) {
  /** A Kubernetes minor version as {@code --kubernetes-version} takes it: {@code 1.35}. */
  public static final java.util.regex.Pattern KUBERNETES_VERSION = java.util.regex.Pattern.compile("[1-9][0-9]*\\.[0-9]+");

  public UpgradeInput {
    nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
  }

  UpgradeInput continuedWith(UpgradeState next) {
    return new UpgradeInput(cluster, nodePools, nodeClass, target, kubernetesVersion, batchSize, canary, soakSeconds,
        gateTimeoutSeconds, approvalRequired, maxFailures, rolling, requestedBy, next);
  }

  /**
   * The preview of this rollout ({@code workflowId}): of the one these flags would start ({@code running} null, the
   * NodePools and target as given), or of what the running one has left (its NodePools and resolved target terms).
   */
  public PreviewRolloutRequest previewRequest(String workflowId, List<String> pools, List<AmiTerm> terms,
      PreviewRolloutRequest.RunningRollout running) {
    ClaimRolloutRequest claim = running == null
        ? new ClaimRolloutRequest(cluster, workflowId, nodePools, nodeClass, target == null ? List.of() : target.terms(), kubernetesVersion)
        : new ClaimRolloutRequest(cluster, workflowId, pools, null, terms, null);
    return new PreviewRolloutRequest(claim, targetText(), batchSize, canary, rolling, soakSeconds, approvalRequired, running);
  }

  /** The target as the workflow id and the result name it: the {@code --ami} text, or {@code k8s-<version>}. */
  public String targetText() {
    return target != null ? target.text() : "k8s-" + kubernetesVersion;
  }

  /**
   * What the input asks for that no rollout could do; null when nothing. {@code farrier upgrade} checks this before
   * it starts anything, and the workflow again (a start from the Temporal UI skips the CLI).
   */
  public String problem() {
    if (cluster == null || cluster.isBlank()) {
      return "no cluster named";
    }
    if (nodePools.isEmpty() == (nodeClass == null || nodeClass.isBlank())) {
      return "name the NodePools (--nodepool, repeatable) or one EC2NodeClass (--nodeclass), not both and not neither";
    }
    if ((target == null) == (kubernetesVersion == null || kubernetesVersion.isBlank())) {
      return "name the target: an AMI (--ami) or a Kubernetes version (--kubernetes-version), not both and not neither";
    }
    if (target == null && !KUBERNETES_VERSION.matcher(kubernetesVersion).matches()) {
      return "Kubernetes version '" + kubernetesVersion + "' is not major.minor, e.g. 1.35";
    }
    try {
      BatchSize.parse(batchSize);
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    if (canary < 1) {
      return "the canary is at least 1 node, not " + canary;
    }
    if (soakSeconds < 0 || gateTimeoutSeconds < 1) {
      return "the soak time cannot be negative and the gate timeout is at least 1s";
    }
    if (maxFailures < 0) {
      return "max failures cannot be negative";
    }
    return null;
  }
}

package dev.farrier.workflows;

/** Workflow ids carry meaning; this is the one place that spells them. */
public final class WorkflowIds {
  private static final String DISRUPTION = "disrupt/";

  private WorkflowIds() {}

  public static String reconciler(String cluster) {
    return "reconciler/" + cluster;
  }

  public static String provisioning(String cluster, long batch) {
    return "provision/" + cluster + "/" + batch;
  }

  /** The static NodePools' scale-up of a cluster: one at a time. */
  public static String staticProvisioning(String cluster) {
    return "provision/" + cluster + "/static";
  }

  public static String launch(String nodeClaim) {
    return "launch/" + nodeClaim;
  }

  public static String disruption(String nodeClaim) {
    return DISRUPTION + nodeClaim;
  }

  /** The NodeClaim a {@code disrupt/<nodeclaim>} id names; null for any other id. */
  public static String nodeClaimOfDisruption(String workflowId) {
    return workflowId != null && workflowId.startsWith(DISRUPTION) && workflowId.length() > DISRUPTION.length()
        ? workflowId.substring(DISRUPTION.length()) : null;
  }

  /** {@code interruption/<queue name>}: one poller per queue, whatever spelling (URL or name) configured it. */
  public static String interruption(String queue) {
    String trimmed = queue.endsWith("/") ? queue.substring(0, queue.length() - 1) : queue;
    return "interruption/" + trimmed.substring(trimmed.lastIndexOf('/') + 1);
  }

  /**
   * {@code upgrade/<nodepools>/<target>}: one rollout per NodePools and target, so the same CI job run again attaches
   * to the running rollout. NodePools are sorted and joined with {@code +}; a rollout of an EC2NodeClass's NodePools is
   * {@code upgrade/nodeclass=<name>/<target>}.
   */
  public static String upgrade(java.util.List<String> nodePools, String nodeClass, String target) {
    String what = nodeClass != null && !nodeClass.isBlank() ? "nodeclass=" + nodeClass.strip()
        : String.join("+", new java.util.TreeSet<>(nodePools));
    return "upgrade/" + what + "/" + target;
  }

  /**
   * {@code preview/<nodepools>/<target>}: the previews of the rollout {@code upgrade/<nodepools>/<target>} start with it
   * ({@code farrier upgrade --dry-run}, {@code farrier upgrade preview}); each adds a suffix of its own. A short
   * workflow that changes nothing.
   */
  public static String preview(String upgradeId) {
    return "preview/" + upgradeId.substring(upgradeId.indexOf('/') + 1);
  }
}

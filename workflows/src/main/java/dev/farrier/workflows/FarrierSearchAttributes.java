package dev.farrier.workflows;

import dev.farrier.model.DisruptionCommand;
import io.temporal.common.SearchAttributeKey;
import io.temporal.common.SearchAttributes;
import java.util.List;

/** Farrier's typed search attribute keys, registered by the local stack and by the Helm chart's setup job. */
public final class FarrierSearchAttributes {
  private FarrierSearchAttributes() {}

  public static final SearchAttributeKey<String> CLUSTER = SearchAttributeKey.forKeyword("FarrierCluster");
  public static final SearchAttributeKey<String> NODE_POOL = SearchAttributeKey.forKeyword("FarrierNodePool");
  public static final SearchAttributeKey<String> NODE = SearchAttributeKey.forKeyword("FarrierNode");
  public static final SearchAttributeKey<String> INSTANCE_ID = SearchAttributeKey.forKeyword("FarrierInstanceId");
  public static final SearchAttributeKey<String> REASON = SearchAttributeKey.forKeyword("FarrierReason");
  public static final SearchAttributeKey<String> PHASE = SearchAttributeKey.forKeyword("FarrierPhase");
  public static final SearchAttributeKey<String> NODE_CLAIM = SearchAttributeKey.forKeyword("FarrierNodeClaim");
  /** What holds a replacement up now (a PDB, do-not-disrupt pods, a failed step, an approval); unset when nothing does. */
  public static final SearchAttributeKey<String> BLOCKER = SearchAttributeKey.forKeyword("FarrierBlocker");

  /** The visibility query that lists every blocked replacement (docs/operate.md's, the sandbox's, the UI test's). */
  public static final String BLOCKED_REPLACEMENTS_QUERY = "ExecutionStatus=\"Running\" AND " + BLOCKER.getName() + " IS NOT NULL";

  /**
   * The visibility query for the running executions of {@code workflowTypes} that belong to {@code cluster} (the
   * metrics' gauges of running replacements and rollouts, the chaos monitor's "settled").
   */
  public static String runningOfCluster(String cluster, List<String> workflowTypes) {
    return "ExecutionStatus = 'Running' AND " + CLUSTER.getName() + " = '" + cluster + "' AND WorkflowType IN ('"
        + String.join("', '", workflowTypes) + "')";
  }

  /**
   * Which replacement this is, as it starts: cluster, NodeClaim, NodePool and reason, and the node and instance when
   * known. The replacement upserts the same (with its phase) in its first task.
   */
  public static SearchAttributes replacementIdentity(String cluster, DisruptionCommand command) {
    var identity = SearchAttributes.newBuilder()
        .set(CLUSTER, cluster)
        .set(NODE_CLAIM, command.nodeClaim());
    if (command.nodePool() != null) {
      identity.set(NODE_POOL, command.nodePool());
    }
    if (command.reason() != null) {
      identity.set(REASON, keyword(command.reason()));
    }
    if (command.nodeName() != null) {
      identity.set(NODE, command.nodeName());
    }
    if (command.instanceId() != null) {
      identity.set(INSTANCE_ID, command.instanceId());
    }
    return identity.build();
  }

  /** Every key, for registration. All are Keyword. */
  public static final List<SearchAttributeKey<String>> ALL = List.of(CLUSTER, NODE_POOL, NODE, INSTANCE_ID, REASON, PHASE, NODE_CLAIM, BLOCKER);

  /** The longest Keyword value Farrier writes: longer words (a blocker naming many pods) are cut with "...". */
  static final int KEYWORD_LIMIT = 250;

  /** {@code text} fitted to a Keyword search attribute ({@link #KEYWORD_LIMIT}). */
  public static String keyword(String text) {
    return text.length() <= KEYWORD_LIMIT ? text : text.substring(0, KEYWORD_LIMIT - 3) + "...";
  }
}

package dev.farrier.starter;

import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import java.util.ArrayList;
import java.util.List;

/**
 * The visibility query behind {@code farrier list}: the cluster's replacements by their search attributes. Running
 * ones unless {@code includeClosed}; a continued-as-new run is never listed (its successor is).
 *
 * @param blockedOnly only those something blocks now (FarrierBlocker set)
 * @param nodePool    only those of this NodePool, or null for all
 */
record ReplacementQuery(String cluster, boolean includeClosed, boolean blockedOnly, String nodePool) {
  static final String WORKFLOW_TYPE = NodeReplacementWorkflow.class.getSimpleName();

  ReplacementQuery {
    requirePlain("--cluster", cluster);
    if (nodePool != null) {
      requirePlain("--nodepool", nodePool);
    }
  }

  String text() {
    List<String> terms = new ArrayList<>();
    terms.add("WorkflowType = '" + WORKFLOW_TYPE + "'");
    terms.add(FarrierSearchAttributes.CLUSTER.getName() + " = '" + cluster + "'");
    terms.add(includeClosed ? "ExecutionStatus != 'ContinuedAsNew'" : "ExecutionStatus = 'Running'");
    if (blockedOnly) {
      terms.add(FarrierSearchAttributes.BLOCKER.getName() + " IS NOT NULL");
    }
    if (nodePool != null) {
      terms.add(FarrierSearchAttributes.NODE_POOL.getName() + " = '" + nodePool + "'");
    }
    return String.join(" AND ", terms);
  }

  /** Kubernetes and cluster names have no quotes; refusing them beats guessing the query language's escaping. */
  private static void requirePlain(String option, String value) {
    if (value.isBlank() || value.contains("'") || value.contains("\"") || value.contains("\\")) {
      throw new IllegalArgumentException(option + " must be a non-empty name without quotes or backslashes: " + value);
    }
  }
}

package dev.farrier.workflows.replacement;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Requirement;
import dev.farrier.model.WellKnown;
import java.util.List;
import java.util.Objects;

/**
 * Karpenter's disruption log line, word for word, so operators' log queries and dashboards keep working:
 * {@code disrupting nodeclaim(s) via replace, terminating 1 nodes (3 pods) ip-10-0-1-2/m5.large/on-demand and
 * replacing with on-demand node from types m5.large, m5a.large, m6i.large, c5.xlarge, c6i.xlarge and 20 other(s)}.
 */
final class DisruptionLogLine {
  private DisruptionLogLine() {}

  /** Karpenter names at most this many instance types before "and N other(s)". */
  static final int TYPES_SHOWN = 5;

  /** {@code replacement} null means no new capacity is needed, which Karpenter calls a delete. */
  static String of(DisruptionCommand command, NodeClaimRequest replacement) {
    String action = (replacement == null ? DisruptionMethod.DELETE : DisruptionMethod.REPLACE).word();
    StringBuilder line = new StringBuilder("disrupting nodeclaim(s) via ").append(action)
        .append(", terminating 1 nodes (").append(command.podCount()).append(" pods) ")
        .append(Objects.toString(command.nodeName(), "")).append('/')
        .append(Objects.toString(command.instanceType(), "")).append('/')
        .append(Objects.toString(command.capacityType(), ""));
    if (replacement != null) {
      line.append(" and replacing with ").append(nodeDescription(replacement))
          .append(" from types ").append(instanceTypeList(replacement.instanceTypes()));
    }
    return line.toString();
  }

  /** "spot node" or "on-demand node" when the claim allows exactly one capacity type, else "node". */
  static String nodeDescription(NodeClaimRequest claim) {
    return claim.requirements().stream()
        .filter(r -> WellKnown.CAPACITY_TYPE_LABEL.equals(r.key()) && "In".equals(r.operator()))
        .map(Requirement::values)
        .filter(values -> values.size() == 1)
        .map(values -> values.getFirst() + " node")
        .findFirst()
        .orElse("node");
  }

  static String instanceTypeList(List<String> types) {
    StringBuilder list = new StringBuilder();
    for (int i = 0; i < types.size(); i++) {
      if (i >= TYPES_SHOWN) {
        list.append(" and ").append(types.size() - i).append(" other(s)");
        break;
      }
      if (i > 0) {
        list.append(", ");
      }
      list.append(types.get(i));
    }
    return list.toString();
  }
}

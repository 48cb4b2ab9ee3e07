package dev.farrier.planner;

import java.util.Map;

/**
 * Karpenter's requirements drift: a claim whose labels no longer meet its NodePool's requirements (a value the pool
 * no longer allows, a label the pool now requires, a value it now excludes), so that narrowing a NodePool from
 * {@code [c, m, r]} to {@code [c, m]} instance categories replaces its {@code r} nodes, and only those. As Karpenter's
 * static check: every requirement of the pool against the claim's labels, an absent label meeting only NotIn and
 * DoesNotExist.
 *
 * <p>One difference, on the safe side: a well-known label ({@link Requirements#isWellKnown}: instance type, offering,
 * NodePool and node class keys) that the claim does not carry is not compared. Farrier records the instance type's
 * labels on the claim at launch, but claims launched before it did, and labels for a fact the cloud does not give (a
 * requirement on {@code karpenter.k8s.aws/instance-hypervisor} met by a bare-metal node), would otherwise drift every node, and their
 * replacements again.
 */
final class RequirementsDrift {
  private RequirementsDrift() {}

  static void check(Map<String, String> labels, NodePoolView pool, DriftCheck.Findings findings) {
    if (labels.isEmpty()) {
      findings.note("requirements not compared (labels unknown)");
      return;
    }
    Requirements required = Requirements.of(pool.requirements(), "nodepool requirement");
    for (var e : required.constraints().entrySet()) {
      String key = e.getKey();
      String value = labels.get(key);
      LabelConstraint constraint = e.getValue();
      if (value == null && constraint.mustExist() && Requirements.isWellKnown(key)) {
        findings.note("requirement on " + key + " not compared (label not recorded on the claim)");
      } else if (value == null && !constraint.allows(null)) {
        findings.drift(DriftCheck.REQUIREMENTS_DRIFTED, "label " + key + " absent, " + required.sourcesOf(key));
        return;
      } else if (value != null && !constraint.allows(value)) {
        findings.drift(DriftCheck.REQUIREMENTS_DRIFTED, "label " + key + "=" + value + " does not meet " + required.sourcesOf(key));
        return;
      }
    }
    findings.note("requirements met");
  }
}

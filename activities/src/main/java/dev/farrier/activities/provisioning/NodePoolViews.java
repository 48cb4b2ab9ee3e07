package dev.farrier.activities.provisioning;

import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolHash;
import dev.farrier.activities.crd.RequirementWithMinValues;
import dev.farrier.activities.views.ResourceQuantities;
import dev.farrier.model.GoDurations;
import dev.farrier.model.Resources;
import dev.farrier.model.Taint;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.DisruptionBudget;
import dev.farrier.planner.ExpiryMode;
import dev.farrier.planner.NodePoolLimits;
import dev.farrier.planner.NodePoolView;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;

/**
 * A NodePool as the planners see it ({@link NodePoolView}): requirements, taints, limits and usage, budgets, expiry and
 * consolidation settings, read the same way for provisioning, replacement and disruption planning.
 */
public final class NodePoolViews {
  private NodePoolViews() {}

  /** The pool's view, its usage the capacity of the {@code claims} labelled with it. */
  public static NodePoolView of(NodePool pool, List<NodeClaim> claims) {
    var spec = pool.getSpec();
    var template = spec.template().spec();
    var name = pool.getMetadata().getName();
    Resources usage = claims.stream().filter(c -> name.equals(c.getMetadata().getLabels().get(WellKnown.NODEPOOL_LABEL)))
        .filter(c -> c.getStatus() != null)
        .map(c -> ResourceQuantities.fromQuantities(c.getStatus().capacity())).reduce(Resources.ZERO, Resources::plus);
    var budgets = spec.disruptionOrDefault().budgetsOrDefault().stream()
        .map(b -> new DisruptionBudget(b.nodes(), b.reasons(), b.schedule(), b.duration())).toList();
    return new NodePoolView(name, spec.weight() == null ? 0 : spec.weight(),
        template.requirementsOrEmpty().stream().map(RequirementWithMinValues::toRequirement).toList(),
        spec.template().metadataOrEmpty().labelsOrEmpty(),
        taints(template.taintsOrEmpty()), taints(template.startupTaintsOrEmpty()),
        template.nodeClassRef() == null ? null : template.nodeClassRef().name(),
        limits(spec.limitsOrEmpty()), usage, NodePoolHash.of(pool), budgets, template.expireAfter(), seconds(template.terminationGracePeriod()),
        "true".equals(annotation(pool, WellKnown.APPROVE_REPLACEMENTS_ANNOTATION)), annotation(pool, WellKnown.ROLLOUT_ANNOTATION),
        spec.disruptionOrDefault().consolidationPolicyOrDefault(), spec.disruptionOrDefault().consolidateAfter(),
        ExpiryMode.ofAnnotation(annotation(pool, WellKnown.EXPIRY_ANNOTATION)), spec.replicas());
  }

  /** A Go duration ({@code 48h}) in whole seconds; null when there is none or it does not parse. */
  public static Long seconds(String goDuration) {
    Long millis = GoDurations.toMillis(goDuration);
    return millis == null ? null : millis / 1000;
  }

  private static String annotation(NodePool pool, String key) {
    return pool.getMetadata().getAnnotations() == null ? null : pool.getMetadata().getAnnotations().get(key);
  }

  private static NodePoolLimits limits(Map<String, Quantity> limits) {
    if (limits.isEmpty()) {
      return NodePoolLimits.NONE;
    }
    var r = ResourceQuantities.fromQuantities(limits);
    return new NodePoolLimits(limits.containsKey("cpu") ? r.milliCpu() : null, limits.containsKey("memory") ? r.memoryBytes() : null,
        limits.containsKey("ephemeral-storage") ? r.ephemeralStorageBytes() : null, limits.containsKey("pods") ? r.pods() : null, r.extended());
  }

  private static List<Taint> taints(List<io.fabric8.kubernetes.api.model.Taint> taints) {
    return taints.stream().map(t -> new Taint(t.getKey(), t.getValue() == null ? "" : t.getValue(), t.getEffect())).toList();
  }
}

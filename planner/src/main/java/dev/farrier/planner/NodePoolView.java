package dev.farrier.planner;

import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A NodePool as the planners see it, read by an activity from the NodePool object.
 *
 * @param weight                        {@code spec.weight}, 0 when unset; higher is tried first
 * @param requirements                  {@code spec.template.spec.requirements}
 * @param labels                        {@code spec.template.metadata.labels}
 * @param taints                        {@code spec.template.spec.taints} (pods must tolerate them)
 * @param startupTaints                 {@code spec.template.spec.startupTaints} (never block scheduling)
 * @param nodeClassName                 {@code spec.template.spec.nodeClassRef.name}
 * @param limits                        {@code spec.limits}; null or {@link NodePoolLimits#NONE} when unset
 * @param usage                         {@code status.resources}: the summed capacity of the pool's nodes now
 * @param hash                          the pool's current template hash (what {@code karpenter.sh/nodepool-hash}
 *                                      on its NodeClaims must equal)
 * @param budgets                       {@code spec.disruption.budgets}; empty means Karpenter's default 10%
 * @param expireAfter                   {@code spec.template.spec.expireAfter} ({@code 720h}, {@code Never}), null
 *                                      when unset
 * @param terminationGracePeriodSeconds {@code spec.template.spec.terminationGracePeriod} in seconds, null when unset
 * @param rollout                       the fleet upgrade that owns the NodePool ({@code farrier.dev/rollout}), null
 *                                      when none: its drifted nodes are then replaced only in that rollout's batches
 * @param consolidationPolicy           {@code spec.disruption.consolidationPolicy}: {@code WhenEmpty},
 *                                      {@code WhenEmptyOrUnderutilized} (the API's default) or {@code Balanced}
 * @param consolidateAfter              {@code spec.disruption.consolidateAfter}: how long after the last pod event a
 *                                      node may be consolidated, or {@code Never}
 * @param expiry                        how its expired nodes are disrupted ({@code farrier.dev/expiry}); null reads as
 *                                      {@link ExpiryMode#FORCEFUL}
 * @param replicas                      {@code spec.replicas}: a static NodePool's node count ({@link StaticPools}),
 *                                      null for a NodePool that follows its pods
 */
public record NodePoolView(
    String name,
    int weight,
    List<Requirement> requirements,
    Map<String, String> labels,
    List<Taint> taints,
    List<Taint> startupTaints,
    String nodeClassName,
    NodePoolLimits limits,
    Resources usage,
    String hash,
    List<DisruptionBudget> budgets,
    String expireAfter,
    Long terminationGracePeriodSeconds,
    boolean approvalRequired,
    String rollout,
    String consolidationPolicy,
    String consolidateAfter,
    ExpiryMode expiry,
    Long replicas) {
  /** The resource name of {@code limits.nodes}: the most nodes a static NodePool may have at once. */
  public static final String NODES_LIMIT = "nodes";
  public static final String WHEN_EMPTY = "WhenEmpty";
  public static final String WHEN_EMPTY_OR_UNDERUTILIZED = "WhenEmptyOrUnderutilized";
  /** Karpenter v1.14's scored consolidation ({@link BalancedScore}). */
  public static final String BALANCED = "Balanced";
  /** What the legacy constructors set: no consolidation (planner tests of other rules stay as they were). */
  public static final String NEVER = "Never";

  /** A NodePool that follows its pods (no {@code replicas}). */
  public NodePoolView(String name, int weight, List<Requirement> requirements, Map<String, String> labels, List<Taint> taints,
      List<Taint> startupTaints, String nodeClassName, NodePoolLimits limits, Resources usage, String hash,
      List<DisruptionBudget> budgets, String expireAfter, Long terminationGracePeriodSeconds, boolean approvalRequired,
      String rollout, String consolidationPolicy, String consolidateAfter, ExpiryMode expiry) {
    this(name, weight, requirements, labels, taints, startupTaints, nodeClassName, limits, usage, hash, budgets, expireAfter,
        terminationGracePeriodSeconds, approvalRequired, rollout, consolidationPolicy, consolidateAfter, expiry, null);
  }

  /** A NodePool that does not consolidate. */
  public NodePoolView(String name, int weight, List<Requirement> requirements, Map<String, String> labels, List<Taint> taints,
      List<Taint> startupTaints, String nodeClassName, NodePoolLimits limits, Resources usage, String hash,
      List<DisruptionBudget> budgets, String expireAfter, Long terminationGracePeriodSeconds, boolean approvalRequired,
      String rollout, ExpiryMode expiry) {
    this(name, weight, requirements, labels, taints, startupTaints, nodeClassName, limits, usage, hash, budgets, expireAfter,
        terminationGracePeriodSeconds, approvalRequired, rollout, WHEN_EMPTY_OR_UNDERUTILIZED, NEVER, expiry);
  }

  /** A NodePool whose replacements need no approval. */
  public NodePoolView(String name, int weight, List<Requirement> requirements, Map<String, String> labels, List<Taint> taints,
      List<Taint> startupTaints, String nodeClassName, NodePoolLimits limits, Resources usage, String hash,
      List<DisruptionBudget> budgets, String expireAfter, Long terminationGracePeriodSeconds) {
    this(name, weight, requirements, labels, taints, startupTaints, nodeClassName, limits, usage, hash, budgets, expireAfter,
        terminationGracePeriodSeconds, false, null);
  }

  /** A NodePool whose expired nodes are disrupted forcefully (the default). */
  public NodePoolView(String name, int weight, List<Requirement> requirements, Map<String, String> labels, List<Taint> taints,
      List<Taint> startupTaints, String nodeClassName, NodePoolLimits limits, Resources usage, String hash,
      List<DisruptionBudget> budgets, String expireAfter, Long terminationGracePeriodSeconds, boolean approvalRequired,
      String rollout) {
    this(name, weight, requirements, labels, taints, startupTaints, nodeClassName, limits, usage, hash, budgets, expireAfter,
        terminationGracePeriodSeconds, approvalRequired, rollout, ExpiryMode.FORCEFUL);
  }

  public NodePoolView {
    requirements = requirements == null ? List.of() : List.copyOf(requirements);
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    taints = taints == null ? List.of() : List.copyOf(taints);
    startupTaints = startupTaints == null ? List.of() : List.copyOf(startupTaints);
    limits = limits == null ? NodePoolLimits.NONE : limits;
    usage = usage == null ? Resources.ZERO : usage;
    budgets = budgets == null ? List.of() : List.copyOf(budgets);
    expiry = expiry == null ? ExpiryMode.FORCEFUL : expiry;
  }

  /** The same NodePool with another {@code usage} (what provisioning counts against the limits). */
  public NodePoolView withUsage(Resources newUsage) {
    return new NodePoolView(name, weight, requirements, labels, taints, startupTaints, nodeClassName, limits, newUsage, hash,
        budgets, expireAfter, terminationGracePeriodSeconds, approvalRequired, rollout, consolidationPolicy, consolidateAfter,
        expiry, replicas);
  }

  /** The NodePool with one more requirement, ANDed with its own (a replacement pinned to its node's zone). */
  public NodePoolView withRequirement(Requirement more) {
    List<Requirement> all = new ArrayList<>(requirements);
    all.add(more);
    return new NodePoolView(name, weight, all, labels, taints, startupTaints, nodeClassName, limits, usage, hash,
        budgets, expireAfter, terminationGracePeriodSeconds, approvalRequired, rollout, consolidationPolicy, consolidateAfter,
        expiry, replicas);
  }

  /** Its policy consolidates nodes that still have pods ({@code WhenEmptyOrUnderutilized}, {@code Balanced}). */
  public boolean consolidatesUnderutilized() {
    return WHEN_EMPTY_OR_UNDERUTILIZED.equals(consolidationPolicy) || BALANCED.equals(consolidationPolicy);
  }

  /** The same NodePool with another consolidation policy and {@code consolidateAfter}. */
  public NodePoolView withConsolidation(String policy, String after) {
    return new NodePoolView(name, weight, requirements, labels, taints, startupTaints, nodeClassName, limits, usage, hash,
        budgets, expireAfter, terminationGracePeriodSeconds, approvalRequired, rollout, policy, after, expiry, replicas);
  }

  /** A static NodePool ({@code spec.replicas} set): a fixed node count, not the pods, decides its size. */
  public boolean isStatic() {
    return replicas != null;
  }

  /** {@code limits.nodes}, or null when the NodePool does not limit its node count. */
  public Long nodeLimit() {
    return limits.extended().get(NODES_LIMIT);
  }

  /** The same NodePool owned by the rollout {@code workflowId} ({@code farrier.dev/rollout}). */
  public NodePoolView withRollout(String workflowId) {
    return new NodePoolView(name, weight, requirements, labels, taints, startupTaints, nodeClassName, limits, usage, hash,
        budgets, expireAfter, terminationGracePeriodSeconds, approvalRequired, workflowId, consolidationPolicy, consolidateAfter,
        expiry, replicas);
  }

  /** The same NodePool as a static one of {@code count} nodes. */
  public NodePoolView withReplicas(Long count) {
    return new NodePoolView(name, weight, requirements, labels, taints, startupTaints, nodeClassName, limits, usage, hash,
        budgets, expireAfter, terminationGracePeriodSeconds, approvalRequired, rollout, consolidationPolicy, consolidateAfter,
        expiry, count);
  }
}

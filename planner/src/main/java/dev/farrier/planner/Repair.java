package dev.farrier.planner;

import dev.farrier.model.GoDurations;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Node repair: Karpenter v1's node health controller (feature gate {@code NodeRepair}, off by default) as a pure
 * function of the disruption snapshot, with the AWS provider's repair policies ({@link #POLICIES}).
 *
 * <p>A node whose condition matches a policy is unhealthy; once it has been so for the policy's toleration (counted
 * from the condition's lastTransitionTime; with several, the one whose toleration ends first decides) it is repaired:
 * replaced forcefully, past budgets, do-not-disrupt and change freezes, its pods deleted at once past PDBs (Karpenter
 * sets the NodeClaim's termination time to now). Unless more than 20% of its NodePool's nodes are unhealthy, rounded up
 * as a PodDisruptionBudget's percentage (of 3 nodes 1 may be, of 5 only 1), counting every node with a matching
 * condition whether or not its toleration has passed: then no node of that NodePool is repaired, and the NodePool is
 * reported ({@link #blocked()}) when one of them is due. Karpenter's cluster-wide share applies only to NodeClaims
 * without a NodePool, which Farrier never plans.
 */
public final class Repair {
  /** Karpenter's disruption reason (metric label {@code reason}) for a repaired node. */
  public static final String REASON = "unhealthy";
  /** The Event reason Karpenter records when the unhealthy share holds repairs. */
  public static final String BLOCKED_EVENT_REASON = "NodeRepairBlocked";
  /** Karpenter's repair deletes the node's pods at once: its termination time is the moment of repair. */
  public static final long TERMINATION_GRACE_SECONDS = 0;
  static final int ALLOWED_UNHEALTHY_PERCENT = 20;

  /** A node condition in {@code status} for {@code toleration} (a Go duration) makes the node due for repair. */
  record Policy(String conditionType, String status, String toleration) {
    long tolerationMillis() {
      return GoDurations.toMillis(toleration);
    }
  }

  /** karpenter-provider-aws {@code CloudProvider.RepairPolicies}: the kubelet's Ready and the node monitoring agent's. */
  static final List<Policy> POLICIES = List.of(
      new Policy("Ready", "False", "30m"),
      new Policy("Ready", "Unknown", "30m"),
      new Policy("AcceleratedHardwareReady", "False", "10m"),
      new Policy("StorageReady", "False", "30m"),
      new Policy("NetworkingReady", "False", "30m"),
      new Policy("KernelReady", "False", "30m"),
      new Policy("ContainerRuntimeReady", "False", "30m"));

  /** A NodePool whose repairs are held: {@code unhealthy} of its {@code nodes} are, at most {@code allowed} may be. */
  public record Blocked(String nodePool, int unhealthy, int nodes, int allowed) {
    public String message() {
      return "more than " + ALLOWED_UNHEALTHY_PERCENT + "% of nodepool " + nodePool + "'s nodes are unhealthy (" + unhealthy
          + " of " + nodes + "; at most " + allowed + " may be): node repair is held for its nodes until fewer are";
    }
  }

  private static final Repair OFF = new Repair(0, Map.of(), Map.of(), Set.of());

  private final long nowMillis;
  private final Map<String, Integer> nodes;
  private final Map<String, Integer> unhealthy;
  private final Set<String> withNodeDue;

  private Repair(long nowMillis, Map<String, Integer> nodes, Map<String, Integer> unhealthy, Set<String> withNodeDue) {
    this.nowMillis = nowMillis;
    this.nodes = nodes;
    this.unhealthy = unhealthy;
    this.withNodeDue = withNodeDue;
  }

  /** Repair over the snapshot's claims; repairs nothing when the snapshot has node repair off. */
  public static Repair of(DisruptionSnapshot snapshot) {
    if (!snapshot.nodeRepair()) {
      return OFF;
    }
    Map<String, Integer> nodes = new HashMap<>();
    Map<String, Integer> unhealthy = new HashMap<>();
    Set<String> withNodeDue = new TreeSet<>();
    for (NodeClaimView claim : snapshot.nodeClaims()) {
      // A NodePool's nodes, as Karpenter lists Nodes by their NodePool label: every claim with a Node.
      if (claim.nodeName() == null || claim.nodePool() == null) {
        continue;
      }
      nodes.merge(claim.nodePool(), 1, Integer::sum);
      Finding first = firstToEnd(claim);
      if (first != null) {
        unhealthy.merge(claim.nodePool(), 1, Integer::sum);
        if (first.endedBy(snapshot.nowMillis())) {
          withNodeDue.add(claim.nodePool());
        }
      }
    }
    return new Repair(snapshot.nowMillis(), nodes, unhealthy, withNodeDue);
  }

  /** Why the claim is repaired now, or null: healthy, still within its toleration, or its NodePool is held. */
  public String repairs(NodeClaimView claim) {
    Finding first = firstToEnd(claim);
    if (first == null || !first.endedBy(nowMillis) || held(claim.nodePool()) != null) {
      return null;
    }
    return "node condition " + first.condition.type() + " is " + first.condition.status() + " since "
        + Instant.ofEpochMilli(first.condition.lastTransitionMillis()) + ", past its toleration of " + first.policy.toleration();
  }

  /** The NodePools whose repairs the unhealthy share holds while one of their nodes is due, by name. */
  public List<Blocked> blocked() {
    return withNodeDue.stream().map(this::held).filter(Objects::nonNull).toList();
  }

  private Blocked held(String pool) {
    int sick = unhealthy.getOrDefault(pool, 0);
    int all = nodes.getOrDefault(pool, 0);
    int allowed = allowedUnhealthy(all);
    return sick > allowed ? new Blocked(pool, sick, all, allowed) : null;
  }

  /** 20% of {@code nodes}, rounded up, as Kubernetes scales a PDB's percentage. */
  static int allowedUnhealthy(int nodes) {
    return (nodes * ALLOWED_UNHEALTHY_PERCENT + 99) / 100;
  }

  /** An unhealthy condition and the policy it matches. */
  private record Finding(NodeConditionView condition, Policy policy) {
    /** Without a transition time there is no start to count from: unhealthy, never due. */
    long endsAtMillis() {
      return condition.lastTransitionMillis() == null ? Long.MAX_VALUE : condition.lastTransitionMillis() + policy.tolerationMillis();
    }

    boolean endedBy(long nowMillis) {
      return condition.lastTransitionMillis() != null && nowMillis - condition.lastTransitionMillis() >= policy.tolerationMillis();
    }
  }

  /** The unhealthy condition whose toleration ends first, or null when no condition matches a policy. */
  private static Finding firstToEnd(NodeClaimView claim) {
    Finding first = null;
    for (Policy policy : POLICIES) {
      for (NodeConditionView c : claim.nodeConditions()) {
        if (policy.conditionType().equals(c.type()) && policy.status().equals(c.status())) {
          Finding found = new Finding(c, policy);
          if (first == null || found.endsAtMillis() < first.endsAtMillis()) {
            first = found;
          }
        }
      }
    }
    return first;
  }
}

package dev.farrier.bench;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.ReplacementPlan;
import dev.farrier.model.ExistingPlacement;
import dev.farrier.model.Resources;
import dev.farrier.planner.CheaperOfferings;
import dev.farrier.planner.ClaimNamer;
import dev.farrier.planner.ConsolidationView;
import dev.farrier.planner.DisruptionPlanner;
import dev.farrier.planner.DisruptionSnapshot;
import dev.farrier.planner.ExistingNodeView;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodePoolView;
import dev.farrier.planner.PodSpecView;
import dev.farrier.planner.ProvisioningPlanner;
import dev.farrier.planner.ProvisioningSnapshot;
import dev.farrier.planner.ReplacementSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Consolidates a simulated fleet to a fixed point, as Farrier would: each round plans with
 * {@link DisruptionPlanner#plan} and applies its commands as if every disruption completed before the next round.
 * <ul>
 *   <li>DELETE: the nodes of the round's deletes go away together, and their pods land where the provisioning planner
 *       puts them as pending pods among the nodes left (its {@code onExisting} placements; the kube-scheduler binds
 *       them there). A plan that needs a new node or leaves a pod unplaced fails the run: the disruption planner said
 *       they fit.</li>
 *   <li>REPLACE: the node (a multi-node replace: every node of its group) gives way to the node
 *       {@link ProvisioningPlanner#planReplacement} plans for its pods under the
 *       command's {@code maxPricePerHour} ({@link CheaperOfferings#below}, narrowed by {@link CheaperOfferings#restrict}
 *       as the planning activity does), launched as its first type at the cheapest offering it allows
 *       ({@link FleetNode#launched}). A replacement that does not take every pod, or does not cost less, fails the run.</li>
 * </ul>
 * Nothing is disrupted but by consolidation here (no drift, expiry or deletion), so any other command fails the run.
 */
final class ConsolidationRounds {
  /** The planners' clock: fixed, since {@code consolidateAfter} is 0s and nothing expires. */
  static final long NOW = 1_795_000_000_000L;

  /**
   * @param rounds        rounds that issued at least one command (the last planning round, which issued none, is not
   *                      counted unless the cap was hit)
   * @param capHit        the cap was reached before a round issued no command
   * @param plannerMillis time spent in {@link DisruptionPlanner#plan}, of the whole loop's
   */
  record Outcome(int rounds, int deletes, int replaces, boolean capHit, double plannerMillis) {}

  private final NodePoolView pool;
  private final List<InstanceTypeView> types;
  private final DisruptionPlanner disruption = new DisruptionPlanner();
  private final ProvisioningPlanner provisioning = new ProvisioningPlanner();

  /** {@code pool}: the NodePool every node belongs to, consolidating; {@code types}: the instance types it may launch. */
  ConsolidationRounds(NodePoolView pool, List<InstanceTypeView> types) {
    this.pool = pool;
    this.types = List.copyOf(types);
  }

  Outcome run(Fleet fleet, int maxRounds) {
    int deletes = 0;
    int replaces = 0;
    long plannerNanos = 0;
    for (int round = 1; round <= maxRounds; round++) {
      long start = System.nanoTime();
      DisruptionPlan plan = disruption.plan(snapshot(fleet));
      plannerNanos += System.nanoTime() - start;
      if (plan.commands().isEmpty()) {
        return new Outcome(round - 1, deletes, replaces, false, plannerNanos / 1e6);
      }
      apply(fleet, plan.commands());
      // A multi-node replace's other nodes are deleted (later, in Farrier; here with the replace).
      deletes += (int) plan.commands().stream().filter(c -> c.method() == DisruptionMethod.DELETE).count()
          + plan.commands().stream().mapToInt(c -> c.consolidatedWith().size()).sum();
      replaces += (int) plan.commands().stream().filter(c -> c.method() == DisruptionMethod.REPLACE).count();
    }
    return new Outcome(maxRounds, deletes, replaces, true, plannerNanos / 1e6);
  }

  /** What the disruption planner reads of the fleet: every node's claim, and the cluster as the scheduler sees it. */
  DisruptionSnapshot snapshot(Fleet fleet) {
    // Karpenter's disruption cost (ConsolidationViews): 1 per reschedulable pod, no deletion cost or priority, no expiry.
    Map<String, Double> cost = new HashMap<>();
    fleet.nodes().forEach(n -> cost.put(n.name(), (double) n.pods().stream().filter(PodSpecView::reschedulable).count()));
    ConsolidationView view = new ConsolidationView(fleet.views(), Map.of(pool.name(), types), List.of(), Map.of(), Map.of(), cost);
    return new DisruptionSnapshot(NOW, List.of(pool), fleet.nodes().stream().map(n -> n.claim(NOW)).toList(), List.of(), Map.of(),
        view);
  }

  /** Applies one round's commands: the deletes together among the nodes no command touches, then each replace. */
  void apply(Fleet fleet, List<DisruptionCommand> commands) {
    for (DisruptionCommand c : commands) {
      if (!c.consolidation()) {
        throw new IllegalStateException("the benchmark's fleet should only be consolidated, yet: " + c);
      }
    }
    Set<String> leaving = commands.stream().map(DisruptionCommand::nodeName).collect(Collectors.toSet());
    List<String> deleted = commands.stream().filter(c -> c.method() == DisruptionMethod.DELETE).map(DisruptionCommand::nodeName).toList();
    if (!deleted.isEmpty()) {
      delete(fleet, deleted, leaving);
    }
    commands.stream().filter(c -> c.method() == DisruptionMethod.REPLACE).forEach(c -> replace(fleet, c));
  }

  private void delete(Fleet fleet, List<String> deleted, Set<String> leaving) {
    List<PodSpecView> moving = new ArrayList<>();
    deleted.forEach(n -> moving.addAll(fleet.node(n).pods()));
    List<ExistingNodeView> remaining = fleet.nodes().stream().filter(n -> !leaving.contains(n.name())).map(FleetNode::view).toList();
    ProvisioningPlan plan = provisioning.plan(new ProvisioningSnapshot(moving, List.of(pool), Map.of(pool.name(), types), List.of(),
        remaining, Map.of()), "consolidation", ClaimNamer.standard());
    if (!plan.claims().isEmpty() || !plan.unschedulable().isEmpty()) {
      throw new IllegalStateException("deleting " + deleted + ": " + plan.claims().size() + " new nodes needed and "
          + plan.unschedulable().size() + " pods unplaced, though the disruption planner found that their " + moving.size()
          + " pods fit on the other nodes");
    }
    deleted.forEach(fleet::remove);
    for (ExistingPlacement placement : plan.onExisting()) {
      fleet.bind(placement.node(), Fleet.pick(moving, placement.pods()));
    }
  }

  /**
   * The node (with a multi-node consolidation's group: every node of it) gives way to one replacement for all their
   * pods; the group's other nodes, which Farrier deletes in later rounds once their pods have room there, go at once.
   */
  private void replace(Fleet fleet, DisruptionCommand command) {
    List<FleetNode> old = new ArrayList<>();
    old.add(fleet.node(command.nodeName()));
    command.consolidatedWith().forEach(claim -> old.add(fleet.node(claim)));
    List<PodSpecView> pods = old.stream().flatMap(n -> n.pods().stream()).toList();
    Resources capacity = old.stream().map(n -> n.type().capacity()).reduce(Resources.ZERO, Resources::plus);
    Double ceiling = command.maxPricePerHour();
    List<InstanceTypeView> cheaper = CheaperOfferings.below(types, ceiling);
    String name = fleet.newName("repl");
    ReplacementPlan plan = CheaperOfferings.restrict(provisioning.planReplacement(new ReplacementSnapshot(command.nodeClaim(), name,
        pods, pool, cheaper, List.of(), capacity, KubeletSettings.DEFAULTS)), cheaper, ceiling);
    String names = old.stream().map(FleetNode::name).toList().toString();
    if (plan.replacement() == null || plan.replacement().pods().size() != pods.size()) {
      throw new IllegalStateException("replacing " + names + ": the replacement does not hold their " + pods.size()
          + " pods: " + plan.description());
    }
    FleetNode node = FleetNode.launched(name, plan.replacement(), cheaper, Fleet.pick(pods, plan.replacement().pods()));
    if (ceiling != null && node.pricePerHour() >= ceiling) {
      throw new IllegalStateException("replacing " + names + " ($" + ceiling + "/h) with a node of $" + node.pricePerHour() + "/h");
    }
    old.forEach(n -> fleet.remove(n.name()));
    fleet.add(node);
  }
}

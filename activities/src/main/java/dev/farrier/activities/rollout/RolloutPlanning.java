package dev.farrier.activities.rollout;

import dev.farrier.activities.cloud.Ownership;
import dev.farrier.activities.disruption.DisruptionRoundEffects;
import dev.farrier.activities.disruption.DisruptionSnapshots;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.RolloutBatch;
import dev.farrier.model.WorkloadRef;
import dev.farrier.planner.DisruptionPlanner;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import io.fabric8.kubernetes.api.model.Pod;
import io.temporal.failure.ApplicationFailure;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code planRollout}: a fleet upgrade's next batch, from the same snapshot as disruption planning
 * ({@link DisruptionSnapshots}: Farrier's claims only, NodePools that pass validation). Writes nothing; its commands
 * count as decisions ({@link DisruptionRoundEffects#decided}).
 */
public final class RolloutPlanning {
  private static final Logger log = LoggerFactory.getLogger(RolloutPlanning.class);

  private final ClusterReader reader;
  private final NodeClaimStore claims;
  private final DisruptionSnapshots snapshots;
  private final DisruptionRoundEffects effects;
  private final Function<List<String>, String> freezeOf;
  private final DisruptionPlanner disruption = new DisruptionPlanner();

  /**
   * @param freezeOf the change freeze holding the cluster or one of these NodePools, described; null when none does
   *                 (a rollout's plan in one step asks it: {@link dev.farrier.model.RolloutScope#inOneStep})
   */
  public RolloutPlanning(ClusterReader reader, NodeClaimStore claims, DisruptionSnapshots snapshots, DisruptionRoundEffects effects,
      Function<List<String>, String> freezeOf) {
    this.reader = reader;
    this.claims = claims;
    this.snapshots = snapshots;
    this.effects = effects;
    this.freezeOf = freezeOf;
  }

  public RolloutBatch plan(PlanDisruptionRequest request) {
    if (request.rollout() == null) {
      throw ApplicationFailure.newNonRetryableFailure("planRollout needs a rollout scope", FailureTypes.INVALID_REQUEST);
    }
    var scope = request.rollout();
    if (scope.inOneStep()) {
      String freeze = freezeOf.apply(scope.nodePools());
      if (freeze != null) {
        log.info("rollout batch not planned rollout={} frozen=\"{}\"", scope.workflowId(), freeze);
        return RolloutBatch.frozenBy(freeze);
      }
    }
    var all = claims.listNodeClaims();
    var claims = all.stream().filter(Ownership::launchedByFarrier).toList();
    var batch = disruption.planRollout(snapshots.of(all, claims, request.frozen(), false).snapshot(), scope);
    if (scope.inOneStep()) {
      batch = batch.withWorkloads(workloadsOn(batch.commands()));
    }
    effects.decided(batch.commands());
    log.info("rollout batch planned rollout={} commands={} remaining={}", scope.workflowId(), batch.commands().size(),
        batch.remaining());
    return batch;
  }

  /** By command's NodeClaim, what runs on its node ({@link Workloads#moved}), from one list of the bound pods. */
  private Map<String, List<WorkloadRef>> workloadsOn(List<DisruptionCommand> commands) {
    Set<String> nodes = commands.stream().map(DisruptionCommand::nodeName).filter(Objects::nonNull).collect(Collectors.toSet());
    Map<String, List<Pod>> podsByNode = nodes.isEmpty() ? Map.of() : reader.listBoundPods().stream()
        .filter(p -> nodes.contains(p.getSpec().getNodeName())).collect(Collectors.groupingBy(p -> p.getSpec().getNodeName()));
    Map<String, List<WorkloadRef>> workloads = new HashMap<>();
    for (DisruptionCommand command : commands) {
      workloads.put(command.nodeClaim(), command.nodeName() == null ? List.of()
          : Workloads.moved(podsByNode.getOrDefault(command.nodeName(), List.of())));
    }
    return workloads;
  }
}

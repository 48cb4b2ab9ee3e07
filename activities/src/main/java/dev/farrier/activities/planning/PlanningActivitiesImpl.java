package dev.farrier.activities.planning;

import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.disruption.DisruptionPlanning;
import dev.farrier.activities.disruption.DisruptionRoundEffects;
import dev.farrier.activities.disruption.DisruptionSnapshots;
import dev.farrier.activities.disruption.ReplacementPlanning;
import dev.farrier.activities.disruption.ReplacementTracker;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.EventSink;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.activities.kube.PodEvictor;
import dev.farrier.activities.metrics.MetricCatalog;
import dev.farrier.activities.provisioning.PlanningInputs;
import dev.farrier.activities.provisioning.ProvisioningPlanning;
import dev.farrier.activities.provisioning.UnschedulableEvents;
import dev.farrier.activities.rollout.RolloutPlanning;
import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.ReplacementPlan;
import dev.farrier.model.RolloutBatch;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.workflows.activities.PlanProvisioningRequest;
import dev.farrier.workflows.activities.PlanReplacementRequest;
import dev.farrier.workflows.activities.PlanningActivities;
import dev.farrier.workflows.activities.RecheckDisruptionRequest;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.util.List;
import java.util.function.Function;

/**
 * {@link PlanningActivities} as one Temporal activity, each method handed to the use case that plans it:
 * {@link ProvisioningPlanning}, {@link ReplacementPlanning}, {@link DisruptionPlanning} and {@link RolloutPlanning}. They
 * read the cluster and the cloud into the pure planners' snapshots and let them decide; the only writes are the
 * deduplicated Events on a pod that fits nowhere ({@link UnschedulableEvents}) and a disruption round's
 * {@link DisruptionRoundEffects} (conditions, Events, metrics), each written toward a target or not sent when already
 * there, so every retry is safe.
 */
public class PlanningActivitiesImpl implements PlanningActivities {
  private final ProvisioningPlanning provisioning;
  private final ReplacementPlanning replacement;
  private final DisruptionPlanning disruption;
  private final RolloutPlanning rollout;
  private final DisruptionRoundEffects effects;
  /** Karpenter's scheduling duration: one provisioning or disruption planning round, the simulation Farrier runs. */
  private final Timer provisionerTimer;
  private final Timer disruptionTimer;

  /**
   * With spot-to-spot consolidation off, as Karpenter's default, and no change freeze ever (as for a cluster whose
   * reconciler does not run).
   */
  public <C extends ClusterReader & NodeClaimStore & PodEvictor & EventSink> PlanningActivitiesImpl(C cluster,
      CloudProvider cloud, ReplacementTracker replacements, MeterRegistry meters) {
    this(cluster, cloud, replacements, meters, false, nodePools -> null);
  }

  /**
   * @param spotToSpot Karpenter's SpotToSpotConsolidation gate ({@code farrier.feature-gates.spot-to-spot-consolidation}):
   *                   an underutilized spot node may be replaced by a cheaper spot node, not only deleted
   * @param freezeOf   the change freeze holding the cluster or one of these NodePools, described; null when none does
   *                   (a rollout's plan in one step asks it: {@link dev.farrier.model.RolloutScope#inOneStep})
   */
  public <C extends ClusterReader & NodeClaimStore & PodEvictor & EventSink> PlanningActivitiesImpl(C cluster,
      CloudProvider cloud, ReplacementTracker replacements, MeterRegistry meters,
      boolean spotToSpot, Function<List<String>, String> freezeOf) {
    this(cluster, cloud, replacements, Clock.systemUTC(), meters, spotToSpot, freezeOf);
  }

  <C extends ClusterReader & NodeClaimStore & PodEvictor & EventSink> PlanningActivitiesImpl(C cluster,
      CloudProvider cloud, ReplacementTracker replacements, Clock clock, MeterRegistry meters,
      boolean spotToSpot, Function<List<String>, String> freezeOf) {
    var inputs = new PlanningInputs(cluster, cloud);
    var snapshots = new DisruptionSnapshots(cluster, replacements, inputs, clock, spotToSpot);
    this.effects = new DisruptionRoundEffects(cluster, cluster, meters, clock);
    this.provisionerTimer = MetricCatalog.SCHEDULING_DURATION.timer(meters, "provisioner");
    this.disruptionTimer = MetricCatalog.SCHEDULING_DURATION.timer(meters, "disruption");
    this.provisioning = new ProvisioningPlanning(cluster, cluster, inputs,
        new UnschedulableEvents(cluster, clock, UnschedulableEvents.WINDOW), clock);
    this.replacement = new ReplacementPlanning(cluster, cluster, cluster, inputs);
    this.disruption = new DisruptionPlanning(cluster, snapshots, effects);
    this.rollout = new RolloutPlanning(cluster, cluster, snapshots, effects, freezeOf);
  }

  @Override
  public ProvisioningPlan planProvisioning(PlanProvisioningRequest request) {
    return provisionerTimer.record(() -> provisioning.plan(request));
  }

  @Override
  public ReplacementPlan planReplacement(PlanReplacementRequest request) {
    return replacement.plan(request);
  }

  @Override
  public DisruptionPlan planDisruption(PlanDisruptionRequest request) {
    return disruptionTimer.record(() -> disruption.plan(request));
  }

  @Override
  public RolloutBatch planRollout(PlanDisruptionRequest request) {
    return disruptionTimer.record(() -> rollout.plan(request));
  }

  @Override
  public CandidateDecision recheckDisruption(RecheckDisruptionRequest request) {
    return disruption.recheck(request);
  }

  /** Waits until the conditions of every planning round so far are written (for tests: they are written after the round). */
  public void awaitConditionWrites() throws Exception {
    effects.awaitConditionWrites();
  }
}

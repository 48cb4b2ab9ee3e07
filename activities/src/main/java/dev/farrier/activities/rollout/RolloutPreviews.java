package dev.farrier.activities.rollout;

import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.Ownership;
import dev.farrier.activities.disruption.DisruptionSnapshots;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.RolloutPreview;
import dev.farrier.model.RolloutPreview.PreviewBatch;
import dev.farrier.model.RolloutPreview.PreviewNode;
import dev.farrier.planner.DisruptionSnapshot;
import dev.farrier.planner.NodeClaimView;
import dev.farrier.planner.ResolvedImages;
import dev.farrier.planner.RolloutEstimate;
import dev.farrier.planner.RolloutSimulation;
import dev.farrier.workflows.activities.PreviewActivities;
import dev.farrier.workflows.activities.PreviewRolloutRequest;
import dev.farrier.workflows.upgrade.BatchSize;
import dev.farrier.workflows.upgrade.UpgradePhase;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link PreviewActivities} on the cluster, the cloud and the replacement history: the target resolved as the rollout's
 * {@code claim} resolves it ({@link RolloutTargets}), the disruption snapshot the rollout's plans are made on
 * ({@link DisruptionSnapshots}) as it will look once the rollout owns the NodePools and their class resolves the target,
 * the batches played forward by the rollout's own planner ({@link RolloutSimulation}), what holds each node's drain
 * ({@link DrainHolds}), and the estimate ({@link RolloutEstimate}). Writes nothing. One attempt is
 * bounded: it waits for nothing, so it does not heartbeat, and its StartToClose (a minute) bounds each attempt; the
 * calls within it are a cache's lists, the cloud's image lookups of the rollout's nodes, the replacement tracker's
 * visibility list (the snapshot's, as the planner's rounds make it), the replacement history's list of at most 3 s and,
 * when there is something to replace, the change freeze as the rollout's plan asks it.
 */
public final class RolloutPreviews implements PreviewActivities {
  private static final Logger log = LoggerFactory.getLogger(RolloutPreviews.class);

  private final ClusterReader reader;
  private final NodeClaimStore claims;
  private final RolloutTargets targets;
  private final DisruptionSnapshots snapshots;
  private final ReplacementHistory history;
  private final Predicate<String> workflowRunning;
  private final Function<List<String>, String> freezeOf;

  /**
   * @param workflowRunning whether a workflow id runs now: a NodePool owned by another running rollout is refused as the
   *                        rollout's claim refuses it
   * @param freezeOf        the change freeze holding the cluster or one of these NodePools, described; null when none
   *                        does (what the rollout's plan asks first)
   */
  public RolloutPreviews(ClusterReader reader, NodeClaimStore claims, CloudProvider cloud, DisruptionSnapshots snapshots,
      ReplacementHistory history, Predicate<String> workflowRunning, Function<List<String>, String> freezeOf) {
    this.workflowRunning = workflowRunning;
    this.freezeOf = freezeOf;
    this.reader = reader;
    this.claims = claims;
    this.targets = new RolloutTargets(reader, cloud);
    this.snapshots = snapshots;
    this.history = history;
  }

  @Override
  public RolloutPreview previewRollout(PreviewRolloutRequest request) {
    RolloutTargets.Target target = targets.resolve(request.target());
    String id = request.target().workflowId();
    List<String> pools = target.nodePoolNames();
    var all = claims.listNodeClaims();
    DisruptionSnapshot now = snapshots.of(all, all.stream().filter(Ownership::launchedByFarrier).toList(), Map.of(), false).snapshot();
    var running = request.running();
    if (running == null) {
      now.nodePools().stream().filter(p -> pools.contains(p.name()))
          .forEach(p -> RolloutTargets.refuseIfTakenByAnother(p.name(), p.rollout(), id, workflowRunning));
    }
    BatchSize size = BatchSize.parse(request.batchSize());
    RolloutSimulation.Result simulated = RolloutSimulation.simulate(asTheRolloutSeesIt(now, id, target), id, pools,
        running == null ? List.of() : running.inFlight(), running != null && running.batches() > 0, request.rolling(), request.canary(),
        running == null ? 0 : running.total(), size::of);

    Map<String, NodeClaimView> views = now.nodeClaims().stream().collect(Collectors.toMap(NodeClaimView::name, v -> v, (a, b) -> a));
    Set<String> imageIds = new TreeSet<>(views.values().stream().filter(v -> pools.contains(v.nodePool()))
        .map(NodeClaimView::imageId).filter(Objects::nonNull).toList());
    Map<String, Image> known = targets.images(imageIds).stream().collect(Collectors.toMap(Image::id, i -> i, (a, b) -> a));
    DrainHolds holds = DrainHolds.of(reader.listBoundPods(), reader.listPodDisruptionBudgets());
    Nodes nodes = new Nodes(views, known, target.targetResolved(), holds);

    List<PreviewBatch> batches = new ArrayList<>();
    boolean canary = running == null || running.batches() == 0;
    for (List<DisruptionCommand> batch : simulated.batches()) {
      List<String> together = batch.stream().map(DisruptionCommand::nodeName).toList();
      batches.add(new PreviewBatch(batches.size() + 1 + (running == null ? 0 : running.batches()), canary && batches.isEmpty(),
          batch.stream().map(c -> nodes.of(c.nodeClaim(), together, c.reason() + ": " + c.detail())).toList()));
    }
    List<PreviewNode> held = simulated.held().stream().map(d -> nodes.of(d.nodeClaim(), null, d.reason())).toList();
    List<PreviewNode> inFlight = running == null ? List.of()
        : running.inFlight().stream().filter(views::containsKey).map(c -> nodes.of(c, null, "being replaced")).toList();

    List<Long> durations = history.durationsSeconds(pools);
    int slots = size.of(Math.max(simulated.total(), 1));
    boolean approvalPending = request.approvalRequired()
        && (canary || running != null && UpgradePhase.AWAITING_APPROVAL.label().equals(running.phase()));
    var estimate = RolloutEstimate.of(durations, batches.stream().map(b -> b.nodes().size()).toList(), request.rolling(),
        canary, slots, request.soakSeconds(), approvalPending, held.size(), inFlight.size());
    String notStarting = batches.isEmpty() && held.isEmpty() && inFlight.isEmpty()
        ? (running == null ? "nothing to replace" : "nothing left to replace") + ": every node of " + pools
            + " already runs a target image " + target.targetImages() : null;
    log.info("rollout previewed rollout={} nodepools={} batches={} held={} total={}", id, pools, batches.size(), held.size(),
        simulated.total());
    return new RolloutPreview(id, running != null, pools, target.nodeClassName(), request.targetText(), target.targetImages(),
        request.rolling(), request.canary(), slots, inFlight, batches, held, simulated.total(), estimate, notStarting,
        notStarting == null ? freezeOf.apply(pools) : null);
  }

  /**
   * The snapshot as the rollout's plans will see it: its NodePools owned by it ({@code farrier.dev/rollout}) and their
   * class resolving to the target's images, by architecture.
   */
  private static DisruptionSnapshot asTheRolloutSeesIt(DisruptionSnapshot now, String id, RolloutTargets.Target target) {
    Set<String> pools = Set.copyOf(target.nodePoolNames());
    List<ResolvedImages> images = new ArrayList<>(now.resolvedImages().stream()
        .filter(r -> !r.nodeClassName().equals(target.nodeClassName())).toList());
    target.targetResolved().stream().collect(Collectors.groupingBy(Image::kubernetesArch, Collectors.mapping(Image::id, Collectors.toList())))
        .forEach((arch, ids) -> images.add(new ResolvedImages(target.nodeClassName(), arch, ids)));
    return new DisruptionSnapshot(now.nowMillis(),
        now.nodePools().stream().map(p -> pools.contains(p.name()) ? p.withRollout(id) : p).toList(),
        now.nodeClaims(), images, now.frozen(), now.consolidation(), now.nodeRepair());
  }

  /** A node of the preview: its claim as the snapshot shows it, its images, and what will hold its drain. */
  private record Nodes(Map<String, NodeClaimView> views, Map<String, Image> known, List<Image> target, DrainHolds holds) {
    /** {@code together}: the nodes drained with it (its batch), null for itself alone. */
    PreviewNode of(String name, List<String> together, String why) {
      NodeClaimView view = views.get(name);
      if (view == null) {
        return new PreviewNode(name, null, null, null, null, null, null, null, List.of(), why);
      }
      Image before = view.imageId() == null ? null : known.get(view.imageId());
      Image after = target.stream().filter(i -> i.kubernetesArch().equals(view.arch()))
          .max(Comparator.comparing(Image::creationDate, Comparator.nullsFirst(Comparator.naturalOrder()))
              .thenComparing(i -> i.name() == null ? "" : i.name()))
          .orElse(null);
      List<String> drained = together == null ? List.of(view.nodeName()) : together;
      return new PreviewNode(name, view.nodeName(), view.nodePool(), view.instanceType(), view.imageId(),
          before == null ? null : before.name(), after == null ? null : after.id(), after == null ? null : after.name(),
          holds.on(view.nodeName(), drained), why);
    }
  }
}

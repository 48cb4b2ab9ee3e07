package dev.farrier.workflows.upgrade;

import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.activities.ClaimRolloutRequest;
import dev.farrier.workflows.activities.OffTargetNode;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.model.RolloutBatch;
import dev.farrier.workflows.activities.RolloutClaim;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.DisruptionBudget;
import dev.farrier.planner.DisruptionPlanner;
import dev.farrier.planner.DisruptionSnapshot;
import dev.farrier.planner.NodeClaimView;
import dev.farrier.planner.NodePoolLimits;
import dev.farrier.planner.NodePoolView;
import dev.farrier.planner.PodsOnNode;
import dev.farrier.planner.ResolvedImages;
import dev.farrier.workflows.testing.FakeRolloutActivities;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import io.temporal.failure.ApplicationFailure;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The cluster as a rollout sees it, in memory, behind the fakes of a {@link FarrierTestEnvironment}: the issue 38 fleet
 * (one EC2NodeClass {@code h10} shared by NodePool {@code h10-x86}, three amd64 nodes under a 50% budget, and
 * {@code h10-arm}, two arm64 nodes under a budget of one). The rollouts' batches come from the real
 * {@link DisruptionPlanner} over this model; what the workflows do through the fakes (taint, abort mark, launch,
 * delete, switch images, take and give back the NodePools) changes it. A replacement is "active" while its
 * {@code disrupt/} workflow runs, as the worker's tracker answers.
 */
final class ModelFleet {
  static final String NODE_CLASS = "h10";
  static final String X86 = "h10-x86";
  static final String ARM = "h10-arm";

  /** One node and its NodeClaim; the node is {@code node-<claim>}, as the fakes name it. */
  static final class Node {
    final String claim;
    final String pool;
    final String arch;
    final String image;
    boolean tainted;
    boolean abortMarked;

    Node(String claim, String pool, String arch, String image) {
      this.claim = claim;
      this.pool = pool;
      this.arch = arch;
      this.image = image;
    }

    @Override
    public String toString() {
      return claim + "@" + image + (tainted ? "+tainted" : "") + (abortMarked ? "+abort-marked" : "");
    }
  }

  private final FarrierTestEnvironment test;
  private final DisruptionPlanner planner = new DisruptionPlanner();
  private final Map<String, Node> nodes = new LinkedHashMap<>();
  /** What the class resolves to now, by architecture. */
  private final Map<String, String> classImages = new HashMap<>();
  /** Which rollout owns each NodePool ({@code farrier.dev/rollout}). */
  private final Map<String, String> owners = new HashMap<>();
  /** A replacement's new claim name, to the claim it replaces (from planReplacement, for the launch). */
  private final Map<String, String> replacing = new HashMap<>();
  /** By rollout id, each of its runs in turn as it gave its NodePools back: whether every node was on its target then. */
  private final Map<String, List<Boolean>> onTargetAtRelease = new HashMap<>();
  private final Map<String, List<String>> targets = new HashMap<>();
  private int launched;

  ModelFleet(FarrierTestEnvironment test) {
    this.test = test;
    classImages.put("amd64", image("al2023@v20251020", "amd64"));
    classImages.put("arm64", image("al2023@v20251020", "arm64"));
    for (int i = 0; i < 3; i++) {
      add(new Node(X86 + "-" + i, X86, "amd64", classImages.get("amd64")));
    }
    for (int i = 0; i < 2; i++) {
      add(new Node(ARM + "-" + i, ARM, "arm64", classImages.get("arm64")));
    }
    test.journal.onRecord(this::followed);
    test.rollout.onClaim(this::claim).onOffTarget(r -> offTarget(r.targetImages()));
    test.planning.onPlanRollout(this::plan);
    var replacementPlan = test.planning.planReplacementBehaviour();
    test.planning.onPlanReplacement(r -> {
      synchronized (this) {
        replacing.put(r.replacementName(), r.nodeClaim());
      }
      return replacementPlan.apply(r);
    });
  }

  /** The image a target resolves to for an architecture: {@code ami-<target>-<arch>}. */
  static String image(String target, String arch) {
    return "ami-" + target.replace('@', '-') + "-" + arch;
  }

  static List<String> images(String target) {
    return List.of(image(target, "amd64"), image(target, "arm64"));
  }

  private void add(Node node) {
    nodes.put(node.claim, node);
  }

  synchronized List<Node> nodes() {
    return List.copyOf(nodes.values());
  }

  /** The nodes not on {@code target}'s images. */
  synchronized List<Node> offTargetNodes(List<String> target) {
    return nodes.values().stream().filter(n -> !target.contains(n.image)).toList();
  }

  /**
   * For each run of the rollout that gave its NodePools back, in order: whether the fleet was entirely on the rollout's
   * target then.
   */
  synchronized List<Boolean> onTargetAtRelease(String rollout) {
    return List.copyOf(onTargetAtRelease.getOrDefault(rollout, List.of()));
  }

  /** The workflows' calls, as they change the cluster. */
  private synchronized void followed(String method, Object[] args) {
    switch (method) {
      case "taintDisrupted" -> byNode(args[0]).ifPresent(n -> n.tainted = true);
      case "untaintDisrupted" -> byNode(args[0]).ifPresent(n -> n.tainted = false);
      case "markAborted" -> byNode(args[0]).ifPresent(n -> n.abortMarked = true);
      case "deleteNodeClaim" -> nodes.remove((String) args[0]);
      case "launchInstance" -> {
        String claim = (String) args[0];
        Node old = nodes.get(replacing.get(claim));
        if (old != null && !nodes.containsKey(claim)) {
          add(new Node(claim, old.pool, old.arch, classImages.get(old.arch)));
        }
      }
      case "awaitImages" -> {
        @SuppressWarnings("unchecked")
        List<String> expected = (List<String>) args[0];
        expected.forEach(i -> classImages.put(i.endsWith("arm64") ? "arm64" : "amd64", i));
      }
      case "release" -> {
        @SuppressWarnings("unchecked")
        List<String> pools = (List<String>) args[0];
        String rollout = pools.stream().map(owners::get).filter(o -> o != null).findFirst().orElse(null);
        pools.forEach(owners::remove);
        if (rollout != null) {
          List<String> target = targets.get(rollout);
          onTargetAtRelease.computeIfAbsent(rollout, k -> new ArrayList<>())
              .add(nodes.values().stream().allMatch(n -> target.contains(n.image)));
        }
      }
      default -> { }
    }
  }

  private java.util.Optional<Node> byNode(Object nodeName) {
    return nodes.values().stream().filter(n -> ("node-" + n.claim).equals(nodeName)).findFirst();
  }

  /** As the worker's claim: refused while another running rollout owns a NodePool; the target resolved per arch. */
  private RolloutClaim claim(ClaimRolloutRequest request) {
    List<String> pools = List.of(ARM, X86);
    synchronized (this) {
      for (String pool : pools) {
        String owner = owners.get(pool);
        if (owner != null && !owner.equals(request.workflowId()) && test.running(owner)) {
          throw ApplicationFailure.newNonRetryableFailure("NodePool " + pool + " is owned by running rollout " + owner,
              FailureTypes.ROLLOUT_CONFLICT);
        }
      }
      pools.forEach(p -> owners.put(p, request.workflowId()));
      String target = request.kubernetesVersion() != null ? "k8s-" + request.kubernetesVersion()
          : request.targetTerms().getFirst().alias();
      List<String> targetImages = images(target).stream().sorted().toList();
      targets.put(request.workflowId(), targetImages);
      return new RolloutClaim(pools, NODE_CLASS, FakeRolloutActivities.OLD_TERMS, null,
          new TreeSet<>(classImages.values()).stream().toList(), request.targetTerms(), null, targetImages,
          FakeRolloutActivities.SETTINGS);
    }
  }


  private synchronized List<OffTargetNode> offTarget(List<String> target) {
    return offTargetNodes(target).stream()
        .map(n -> new OffTargetNode(n.claim, "node-" + n.claim, n.image, n.abortMarked ? "abort-marked" : "model")).toList();
  }

  /** The real planner over the model; a claim whose {@code disrupt/} workflow runs is being replaced. */
  private RolloutBatch plan(PlanDisruptionRequest request) {
    List<String> claims;
    synchronized (this) {
      claims = List.copyOf(nodes.keySet());
    }
    Map<String, Boolean> active = new HashMap<>();
    claims.forEach(c -> active.put(c, test.running(WorkflowIds.disruption(c))));
    synchronized (this) {
      long now = System.currentTimeMillis();
      List<NodePoolView> pools = new ArrayList<>();
      pools.add(pool(X86, "50%"));
      pools.add(pool(ARM, "1"));
      List<NodeClaimView> views = nodes.values().stream().map(n -> new NodeClaimView(n.claim, n.pool, NODE_CLASS,
          "node-" + n.claim, "i-" + n.claim, n.image, n.arch, "hash-" + n.pool, WellKnown.CAPACITY_ON_DEMAND, "m5.large",
          "us-east-1a", true, true, false, n.tainted, n.abortMarked, false, now - 3_600_000L, null, null, null,
          new PodsOnNode(3, 2, List.of()), active.getOrDefault(n.claim, false), false)).toList();
      List<ResolvedImages> images = classImages.entrySet().stream()
          .map(e -> new ResolvedImages(NODE_CLASS, e.getKey(), List.of(e.getValue()))).toList();
      return planner.planRollout(new DisruptionSnapshot(now, pools, views, images), request.rollout());
    }
  }

  private NodePoolView pool(String name, String budget) {
    return new NodePoolView(name, 0, List.of(), Map.of(), List.of(), List.of(), NODE_CLASS, NodePoolLimits.NONE,
        Resources.ZERO, "hash-" + name, List.of(DisruptionBudget.of(budget)), null, null, false, owners.get(name));
  }
}

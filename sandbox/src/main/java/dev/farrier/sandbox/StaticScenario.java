package dev.farrier.sandbox;

import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.WellKnown;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.reconciler.ClusterReconcilerWorkflow;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.ByteArrayInputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * {@code --scenario static}: the blueprint's NodePool made static ({@code replicas: 3}, consolidateAfter 0s, no pods
 * at all), scaled to {@value #SCALED_UP} and back to {@value #REPLICAS} through the scale subresource as
 * {@code kubectl scale nodepool} does. Its empty nodes are never consolidated: the planner says so for each of them, and
 * the only replacements ever started are the scale-down's.
 */
public final class StaticScenario {
  public static final int REPLICAS = 3;
  public static final int SCALED_UP = 5;

  /**
   * What the scenario saw.
   *
   * @param initial       the NodeClaims once the pool had its first {@value #REPLICAS}, with their zones
   * @param scaledUp      the NodeClaims at {@value #SCALED_UP}
   * @param scaledDown    the NodeClaims back at {@value #REPLICAS}
   * @param decisions     the planner's preview at {@value #SCALED_UP}: each NodeClaim's reason
   * @param replacements  every replacement workflow started, by NodeClaim, with its reason
   */
  public record Played(Map<String, String> initial, Map<String, String> scaledUp, Map<String, String> scaledDown,
      Map<String, String> decisions, Map<String, String> replacements) {}

  private final SandboxEnvironment env;
  private final DriftScenario helpers;
  private final Duration timeout;

  public StaticScenario(SandboxEnvironment env, DriftScenario helpers, Duration timeout) {
    this.env = env;
    this.helpers = helpers;
    this.timeout = timeout;
  }

  /**
   * The blueprint's NodePool static ({@code replicas} under spec, only limits.nodes allowed), consolidating empty nodes
   * at once were it dynamic, and no Deployment replicas: nothing but the count keeps its nodes.
   */
  static String edit(String blueprint) {
    return blueprint
        .replace("  replicas: 3\n", "  replicas: 0\n")
        .replace("spec:\n  disruption:\n", "spec:\n  replicas: " + REPLICAS + "\n  disruption:\n")
        .replace("    consolidateAfter: 1m\n  limits:\n    cpu: \"100\"\n", "    consolidateAfter: 0s\n  limits:\n    nodes: 10\n");
  }

  public Played play(PrintStream out) {
    out.printf("== applying the blueprint with a static NodePool of %d replicas (consolidateAfter 0s, no pods)%n", REPLICAS);
    String manifest = helpers.blueprintFor(StaticScenario::edit, Sandbox.FROM_VERSION);
    env.kube().load(new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8))).serverSideApply();
    var initial = awaitClaims(REPLICAS);
    out.printf("   %d nodes: %s%n", initial.size(), initial);

    out.printf("== kubectl scale nodepool %s --replicas=%d (PATCH of the scale subresource)%n", DriftScenario.NODE_POOL, SCALED_UP);
    scale(SCALED_UP);
    var scaledUp = awaitClaims(SCALED_UP);
    out.printf("   %d nodes: %s%n", scaledUp.size(), scaledUp);
    var decisions = decisions();
    out.printf("   the planner on each (consolidateAfter 0s, all empty): %s%n", decisions.values().stream().distinct().toList());

    out.printf("== kubectl scale nodepool %s --replicas=%d%n", DriftScenario.NODE_POOL, REPLICAS);
    scale(REPLICAS);
    var scaledDown = awaitClaims(REPLICAS);
    out.printf("   %d nodes: %s%n", scaledDown.size(), scaledDown);
    return new Played(initial, scaledUp, scaledDown, decisions, replacements());
  }

  static void report(Played played, PrintStream out) {
    out.printf("   replacements started: %s%n", played.replacements());
    List<String> problems = problems(played);
    if (!problems.isEmpty()) {
      throw new IllegalStateException(String.join("; ", problems) + ": " + played);
    }
  }

  /** What the scenario promises and did not hold, empty when all held. */
  public static List<String> problems(Played played) {
    var problems = new java.util.ArrayList<String>();
    if (!played.scaledUp().keySet().containsAll(played.initial().keySet())) {
      problems.add("a node of the first " + REPLICAS + " was removed while scaling up");
    }
    if (!played.scaledUp().keySet().containsAll(played.scaledDown().keySet())) {
      problems.add("the scale-down launched a node");
    }
    if (played.decisions().size() != SCALED_UP
        || !played.decisions().values().stream().allMatch(d -> d.contains("never consolidated"))) {
      problems.add("not every node was left alone as a static one: " + played.decisions());
    }
    var removed = played.scaledUp().keySet().stream().filter(c -> !played.scaledDown().containsKey(c)).sorted().toList();
    if (!played.replacements().keySet().equals(new java.util.TreeSet<>(removed))
        || !played.replacements().values().stream().allMatch("scaled_down"::equals)) {
      problems.add("replacements other than the scale-down's " + removed + ": " + played.replacements());
    }
    return problems;
  }

  private void scale(int replicas) {
    env.kube().genericKubernetesResources("karpenter.sh/v1", "NodePool").withName(DriftScenario.NODE_POOL).subresource("scale")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":" + replicas + "}}");
  }

  /** Waits until the pool has exactly {@code count} NodeClaims, all initialized and none deleting; by name, their zones. */
  private Map<String, String> awaitClaims(int count) {
    return Await.until(count + " initialized NodeClaims of static NodePool " + DriftScenario.NODE_POOL, timeout, () -> {
      var claims = helpers.nodeClaims().stream()
          .filter(c -> DriftScenario.NODE_POOL.equals(c.getMetadata().getLabels().get(WellKnown.NODEPOOL_LABEL))).toList();
      boolean settled = claims.size() == count && claims.stream().allMatch(c -> c.getMetadata().getDeletionTimestamp() == null
          && initialized(c));
      if (!settled) {
        return null;
      }
      Map<String, String> zones = new TreeMap<>();
      claims.forEach(c -> zones.put(c.getMetadata().getName(), c.getMetadata().getLabels().get(WellKnown.ZONE_LABEL)));
      return zones;
    }, helpers::diagnostics);
  }

  private static boolean initialized(GenericKubernetesResource claim) {
    return DriftScenario.status(claim).get("conditions") instanceof List<?> conditions && conditions.stream()
        .anyMatch(c -> c instanceof Map<?, ?> m && "Initialized".equals(m.get("type")) && "True".equals(m.get("status")));
  }

  /** The reconciler's preview (what {@code farrier plan} shows): each of the pool's NodeClaims' reason. */
  private Map<String, String> decisions() {
    var reconciler = env.temporal().newWorkflowStub(ClusterReconcilerWorkflow.class, WorkflowIds.reconciler(env.cluster()));
    DisruptionPlan plan = reconciler.previewPlan();
    Map<String, String> reasons = new TreeMap<>();
    for (CandidateDecision d : plan.decisions()) {
      if (DriftScenario.NODE_POOL.equals(d.nodePool())) {
        reasons.put(d.nodeClaim(), d.disrupt() ? "disrupt: " + d.reason() : d.reason());
      }
    }
    return reasons;
  }

  /** Every replacement workflow started in the cluster, by NodeClaim, with its reason. */
  private Map<String, String> replacements() {
    Map<String, String> found = new TreeMap<>();
    env.temporal().listExecutions("WorkflowType = 'NodeReplacementWorkflow'").forEach(e -> found.put(
        Objects.requireNonNullElse(WorkflowIds.nodeClaimOfDisruption(e.getExecution().getWorkflowId()), e.getExecution().getWorkflowId()),
        String.valueOf(e.getTypedSearchAttributes().get(FarrierSearchAttributes.REASON))));
    return found;
  }
}

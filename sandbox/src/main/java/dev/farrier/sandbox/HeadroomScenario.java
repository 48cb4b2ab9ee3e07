package dev.farrier.sandbox;

import dev.farrier.activities.headroom.HeadroomPlaceholders;
import dev.farrier.activities.headroom.HeadroomReconciler;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.ByteArrayInputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * {@code --scenario headroom}: the blueprint's NodePool (c5.large only, so each node holds one placeholder of one CPU
 * and no app pod beside it; WhenEmpty, consolidateAfter 0s; limits.cpu {@value #LIMIT_CPU}) annotated {@code farrier.dev/headroom}, first with a value
 * that is refused ({@value #INVALID}: the NodePool's condition and a Warning Event say why, nothing runs), then with
 * {@value #HEADROOM}: two spare nodes come up with the placeholders Running. A burst of {@value #BURST} app pods runs on
 * those nodes at once (the kube-scheduler preempts the placeholders; no node is launched for an app pod), then Farrier
 * launches new nodes for the displaced placeholders. Removing the annotation removes the placeholders, and the spare
 * nodes, empty, are consolidated away.
 */
public final class HeadroomScenario {
  public static final String HEADROOM = "pods=2,cpu=1,memory=1Gi";
  public static final String INVALID = "pods=2,cpu=lots";
  public static final int BURST = 2;
  static final String TYPE = "c5.large";
  /**
   * The pool's limits.cpu: room for the four nodes of 2 CPU the scenario needs (two spare, two for the displaced
   * placeholders) and not a fifth. The nodes launched for the displaced placeholders take the pool's usage close to it
   * before the placeholders are on them: the placeholders are kept all the same.
   */
  static final int LIMIT_CPU = 9;

  /**
   * What the scenario saw.
   *
   * @param refusal         the NodePool's headroom condition while the value was invalid (reason: message)
   * @param refusalEvent    whether a Warning Event on the NodePool named the annotation
   * @param spareNodes      the nodes of the placeholders before the burst
   * @param burstNodes      each app pod of the burst, by name, and the node it ran on
   * @param launchedForBurst the NodeClaims planned for an app pod of the burst (their planned-pods annotation)
   * @param displacedNodes  the nodes of the placeholders once the burst displaced them
   * @param appNodesAfterRemoval the pool's nodes once the annotation was removed and the spare ones consolidated
   * @param placeholdersAfterRemoval placeholder pods left after the removal
   */
  public record Played(String refusal, boolean refusalEvent, Set<String> spareNodes, Map<String, String> burstNodes,
      Set<String> launchedForBurst, Set<String> displacedNodes, Set<String> appNodesAfterRemoval, int placeholdersAfterRemoval) {}

  private final SandboxEnvironment env;
  private final DriftScenario helpers;
  private final Duration timeout;

  public HeadroomScenario(SandboxEnvironment env, DriftScenario helpers, Duration timeout) {
    this.env = env;
    this.helpers = helpers;
    this.timeout = timeout;
  }

  /** The blueprint with no app pods, its NodePool of c5.large only, removing empty nodes at once, annotated {@code headroom}. */
  static String edit(String blueprint, String headroom) {
    return blueprint
        .replace("  name: latest-current-ami\nspec:\n", "  name: latest-current-ami\n  annotations:\n    "
            + WellKnown.HEADROOM_ANNOTATION + ": \"" + headroom + "\"\nspec:\n")
        .replace("consolidationPolicy: WhenEmptyOrUnderutilized\n    consolidateAfter: 1m", "consolidationPolicy: WhenEmpty\n    consolidateAfter: 0s")
        .replace("  limits:\n    cpu: \"100\"\n", "  limits:\n    cpu: \"" + LIMIT_CPU + "\"\n")
        .replace("        - key: kubernetes.io/arch\n", "        - key: node.kubernetes.io/instance-type\n          operator: In\n          values: [\""
            + TYPE + "\"]\n        - key: kubernetes.io/arch\n")
        .replace("  replicas: 3\n", "  replicas: 0\n");
  }

  public Played play(PrintStream out) {
    out.printf("== applying the blueprint (%s only, no app pods) with %s: \"%s\"%n", TYPE, WellKnown.HEADROOM_ANNOTATION, INVALID);
    String manifest = helpers.blueprintFor(b -> edit(b, INVALID), Sandbox.FROM_VERSION);
    env.kube().load(new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8))).serverSideApply();
    String refusal = Await.until("the NodePool's " + HeadroomReconciler.CONDITION + " condition to refuse the value", timeout, () -> {
      var c = condition();
      return c != null && HeadroomReconciler.INVALID.equals(c.get("reason")) ? c.get("reason") + ": " + c.get("message") : null;
    }, helpers::diagnostics);
    boolean refusalEvent = Await.until("a Warning Event naming the annotation", timeout, () -> env.kube().v1().events().inAnyNamespace()
        .list().getItems().stream().anyMatch(e -> "NodePool".equals(e.getInvolvedObject().getKind())
            && HeadroomReconciler.INVALID.equals(e.getReason()) && e.getMessage().contains(WellKnown.HEADROOM_ANNOTATION)) ? true : null,
        helpers::diagnostics);
    out.println("   refused: " + refusal);

    out.printf("== %s: \"%s\"%n", WellKnown.HEADROOM_ANNOTATION, HEADROOM);
    annotate(HEADROOM);
    Map<String, String> spare = awaitPlaceholders(Set.of());
    out.printf("   placeholders Running on spare nodes %s%n", new TreeSet<>(spare.values()));
    Set<String> nodesBefore = poolNodes();

    out.printf("== a burst: %s scaled to %d pods of 1 CPU%n", DriftScenario.APP, BURST);
    env.kube().apps().deployments().inNamespace(DriftScenario.NAMESPACE).withName(DriftScenario.APP).scale(BURST);
    Map<String, String> burst = Await.until(BURST + " " + DriftScenario.APP + " pods Ready", timeout, () -> {
      var ready = helpers.readyAppPods();
      return ready.size() == BURST ? ready.stream().collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getSpec().getNodeName(),
          (a, b) -> a, TreeMap::new)) : null;
    }, helpers::diagnostics);
    out.printf("   Running on %s (nodes before the burst: %s)%n", new TreeSet<>(burst.values()), nodesBefore);
    Set<String> burstUids = helpers.readyAppPods().stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
    Map<String, String> displaced = awaitPlaceholders(Set.copyOf(burst.values()));
    out.printf("   the displaced placeholders Running again on %s%n", new TreeSet<>(displaced.values()));
    Set<String> launchedForBurst = launchedFor(burstUids);

    out.printf("== %s removed%n", WellKnown.HEADROOM_ANNOTATION);
    annotate(null);
    Set<String> appNodes = Set.copyOf(burst.values());
    Set<String> after = Await.until("the spare nodes consolidated away", timeout, () -> {
      var nodes = poolNodes();
      return nodes.equals(appNodes) && placeholders().isEmpty() ? nodes : null;
    }, helpers::diagnostics);
    out.printf("   the pool's nodes: %s%n", new TreeSet<>(after));
    return new Played(refusal, refusalEvent, new TreeSet<>(spare.values()), burst, launchedForBurst, new TreeSet<>(displaced.values()),
        new TreeSet<>(after), placeholders().size());
  }

  static void report(Played played, PrintStream out) {
    out.printf("   nodeclaims launched for a burst pod: %s%n", played.launchedForBurst());
    List<String> problems = problems(played);
    if (!problems.isEmpty()) {
      throw new IllegalStateException(String.join("; ", problems) + ": " + played);
    }
  }

  /** What the scenario promises and did not hold, empty when all held. */
  public static List<String> problems(Played played) {
    List<String> problems = new ArrayList<>();
    if (!played.refusal().contains(WellKnown.HEADROOM_ANNOTATION) || !played.refusalEvent()) {
      problems.add("the invalid value was not refused by name in the condition and an Event: " + played.refusal());
    }
    if (played.spareNodes().size() != 2) {
      problems.add("two placeholders of 1 CPU on " + TYPE + " nodes should take two spare nodes: " + played.spareNodes());
    }
    if (!played.spareNodes().containsAll(played.burstNodes().values())) {
      problems.add("the burst did not run on the spare nodes: " + played.burstNodes() + " vs " + played.spareNodes());
    }
    if (!played.launchedForBurst().isEmpty()) {
      problems.add("nodes were launched for burst pods the scheduler placed by preemption: " + played.launchedForBurst());
    }
    if (played.displacedNodes().size() != 2 || played.displacedNodes().stream().anyMatch(played.spareNodes()::contains)) {
      problems.add("the displaced placeholders did not get new nodes: " + played.displacedNodes());
    }
    if (!played.appNodesAfterRemoval().equals(Set.copyOf(played.burstNodes().values())) || played.placeholdersAfterRemoval() != 0) {
      problems.add("after the removal the pool should keep only the burst's nodes: " + played.appNodesAfterRemoval());
    }
    return problems;
  }

  private void annotate(String value) {
    var patch = new HashMap<String, Object>();
    patch.put(WellKnown.HEADROOM_ANNOTATION, value);
    env.kube().genericKubernetesResources("karpenter.sh/v1", "NodePool").withName(DriftScenario.NODE_POOL)
        .patch(PatchContext.of(PatchType.JSON_MERGE), io.fabric8.kubernetes.client.utils.Serialization.asJson(
            Map.of("metadata", Map.of("annotations", patch))));
  }

  /** Waits until both placeholders are Ready on nodes outside {@code avoid}; by pod, its node. */
  private Map<String, String> awaitPlaceholders(Set<String> avoid) {
    return Await.until("2 placeholders Ready on Farrier nodes outside " + avoid, timeout, () -> {
      var pods = placeholders();
      boolean settled = pods.size() == 2 && pods.stream().allMatch(p -> ready(p) && !avoid.contains(p.getSpec().getNodeName()));
      return settled ? pods.stream().collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getSpec().getNodeName(), (a, b) -> a,
          TreeMap::new)) : null;
    }, helpers::diagnostics);
  }

  private List<Pod> placeholders() {
    return env.kube().pods().inNamespace(SandboxEnvironment.WORKER_NAMESPACE)
        .withLabel(WellKnown.HEADROOM_NODEPOOL_LABEL, DriftScenario.NODE_POOL).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
  }

  private static boolean ready(Pod pod) {
    return pod.getStatus() != null && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /** The pool's Nodes, not being deleted. */
  private Set<String> poolNodes() {
    return env.kube().nodes().withLabel(WellKnown.NODEPOOL_LABEL, DriftScenario.NODE_POOL).list().getItems().stream()
        .filter(n -> n.getMetadata().getDeletionTimestamp() == null).map(n -> n.getMetadata().getName())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** The NodeClaims whose planned pods name one of {@code uids}. */
  private Set<String> launchedFor(Set<String> uids) {
    Set<String> claims = new TreeSet<>();
    for (GenericKubernetesResource claim : helpers.nodeClaims()) {
      var annotations = claim.getMetadata().getAnnotations();
      String planned = annotations == null ? null : annotations.get(WellKnown.PLANNED_PODS_ANNOTATION);
      if (planned != null && Arrays.stream(planned.split(",")).anyMatch(uids::contains)) {
        claims.add(claim.getMetadata().getName());
      }
    }
    return claims;
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> condition() {
    var pool = env.kube().genericKubernetesResources("karpenter.sh/v1", "NodePool").withName(DriftScenario.NODE_POOL).get();
    if (pool == null || !(DriftScenario.status(pool).get("conditions") instanceof List<?> conditions)) {
      return null;
    }
    return conditions.stream().filter(c -> c instanceof Map<?, ?> m && HeadroomReconciler.CONDITION.equals(m.get("type")))
        .map(c -> (Map<String, Object>) c).findFirst().orElse(null);
  }

  /** The placeholder Deployment's name, for the report. */
  static String deployment() {
    return SandboxEnvironment.WORKER_NAMESPACE + "/" + HeadroomPlaceholders.name(DriftScenario.NODE_POOL);
  }
}

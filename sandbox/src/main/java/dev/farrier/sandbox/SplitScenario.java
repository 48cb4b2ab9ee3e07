package dev.farrier.sandbox;

import dev.farrier.activities.views.ProviderIds;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.CapacitySplit;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.ByteArrayInputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code --scenario split}: the blueprint's NodePool (spot and on-demand) and a Deployment of {@value #REPLICAS} pods
 * annotated {@code farrier.dev/on-demand-min: "30%"} whose template carries the scheduling gate
 * {@code farrier.dev/capacity-split}. At least 30% of its pods run on on-demand nodes, the rest on spot; a spot node
 * holding some of them is interrupted (the simulated cloud's EC2 warning on the SQS queue) and their replacements are
 * decided again; scaled to {@value #SCALED_OUT} and back, the share still holds; the minimum raised (as a count) by
 * {@value #RAISED_BY} above the on-demand pods then is met by rebalancing (spot pods evicted one at a time, their
 * replacements pinned). A second Deployment with a typo in the
 * annotation ({@value #TYPO}) keeps its pod gated and gets a Warning Event naming the annotation.
 */
public final class SplitScenario {
  public static final String APP = "split";
  public static final String TYPO_APP = "split-typo";
  public static final String TYPO = "thirty";
  public static final int REPLICAS = 10;
  public static final int SCALED_OUT = 20;
  public static final String MINIMUM = "30%";
  /**
   * How many on-demand pods the minimum is raised by after the scale-down (as a count: the on-demand pods then plus
   * this, at most {@value #REPLICAS}), so rebalancing always has spot pods to evict, one at a time, until it holds.
   */
  public static final int RAISED_BY = 2;

  /**
   * What the scenario saw: each phase's Ready pods with the capacity type of their node.
   *
   * @param interruptedNode the spot node interrupted
   * @param raisedTo        the count the minimum was raised to after the scale-down
   * @param rebalanced      the CapacitySplitRebalanced Events on the Deployment, as {@code reason: message}
   * @param typoPodGated    whether the typo Deployment's pod was still gated at the end
   * @param typoEvents      the Warning Events on the typo Deployment, as {@code reason: message}
   * @param pinned          by phase ({@code initial}, {@code afterInterruption}, {@code scaledOut}), how many pods of the
   *                        Deployment carried the on-demand pin: Farrier pins only while the count is short
   */
  public record Played(Map<String, String> initial, String interruptedNode, Map<String, String> afterInterruption,
      Map<String, String> scaledOut, Map<String, String> scaledDown, int raisedTo, Map<String, String> raised, List<String> rebalanced,
      boolean typoPodGated, List<String> typoEvents, Map<String, Long> pinned) {
    public static long onDemand(Map<String, String> placement) {
      return placement.values().stream().filter(WellKnown.CAPACITY_ON_DEMAND::equals).count();
    }

    public static long spot(Map<String, String> placement) {
      return placement.values().stream().filter(WellKnown.CAPACITY_SPOT::equals).count();
    }
  }

  private final SandboxEnvironment env;
  private final DriftScenario helpers;
  private final Duration timeout;

  public SplitScenario(SandboxEnvironment env, DriftScenario helpers, Duration timeout) {
    this.env = env;
    this.helpers = helpers;
    this.timeout = timeout;
  }

  /** A Deployment of {@code replicas} 1-vCPU pods on the blueprint's NodePool, annotated and gated for the split. */
  static String deployment(String name, int replicas, String minimum) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: %1$s
          namespace: default
          annotations:
            %3$s: "%4$s"
        spec:
          replicas: %2$d
          selector:
            matchLabels:
              app: %1$s
          template:
            metadata:
              labels:
                app: %1$s
            spec:
              schedulingGates:
                - name: %5$s
              nodeSelector:
                intent: apps
              containers:
                - name: app
                  image: public.ecr.aws/eks-distro/kubernetes/pause:3.7
                  resources:
                    requests:
                      cpu: "1"
                      memory: 256Mi
        """.formatted(name, replicas, CapacitySplit.ANNOTATION, minimum, CapacitySplit.GATE);
  }

  public Played play(PrintStream out) {
    out.println("== applying the blueprint's NodePool (spot and on-demand) without its inflate pods");
    apply(helpers.blueprintFor(b -> b.replace("  replicas: 3\n", "  replicas: 0\n"), Sandbox.FROM_VERSION));
    out.printf("== applying Deployment %s: %d replicas, %s: \"%s\", scheduling gate %s%n", APP, REPLICAS, CapacitySplit.ANNOTATION, MINIMUM,
        CapacitySplit.GATE);
    apply(deployment(APP, REPLICAS, MINIMUM));
    out.printf("   and Deployment %s: 1 replica, %s: \"%s\" (a typo)%n", TYPO_APP, CapacitySplit.ANNOTATION, TYPO);
    apply(deployment(TYPO_APP, 1, TYPO));
    var initial = awaitPlaced(REPLICAS, null);
    Map<String, Long> pinned = new TreeMap<>();
    pinned.put("initial", pinned());
    out.printf("   %d pods Ready: %d on on-demand, %d on spot%n", initial.size(), Played.onDemand(initial), Played.spot(initial));

    String spotNode = spotNodeWithMostPods();
    String instance = ProviderIds.instanceId(env.kube().nodes().withName(spotNode).get().getSpec().getProviderID());
    out.printf("== interrupting spot node %s (instance %s) through the EC2 warning on the SQS queue%n", spotNode, instance);
    env.interruptions().interrupt(instance);
    var afterInterruption = awaitPlaced(REPLICAS, spotNode);
    pinned.put("afterInterruption", pinned());
    out.printf("   %d pods Ready off %s: %d on on-demand, %d on spot%n", afterInterruption.size(), spotNode,
        Played.onDemand(afterInterruption), Played.spot(afterInterruption));

    out.printf("== kubectl scale deployment %s --replicas=%d%n", APP, SCALED_OUT);
    env.kube().apps().deployments().inNamespace(DriftScenario.NAMESPACE).withName(APP).scale(SCALED_OUT);
    var scaledOut = awaitPlaced(SCALED_OUT, spotNode);
    pinned.put("scaledOut", pinned());
    out.printf("   %d pods Ready: %d on on-demand, %d on spot%n", scaledOut.size(), Played.onDemand(scaledOut), Played.spot(scaledOut));

    out.printf("== kubectl scale deployment %s --replicas=%d%n", APP, REPLICAS);
    env.kube().apps().deployments().inNamespace(DriftScenario.NAMESPACE).withName(APP).scale(REPLICAS);
    var scaledDown = awaitPlaced(REPLICAS, spotNode, CapacitySplit.Minimum.parse(MINIMUM).of(REPLICAS));
    out.printf("   %d pods Ready: %d on on-demand, %d on spot%n", scaledDown.size(), Played.onDemand(scaledDown), Played.spot(scaledDown));

    int raisedTo = (int) Math.min(Played.onDemand(scaledDown) + RAISED_BY, REPLICAS);
    out.printf("== kubectl annotate deployment %s %s=%d --overwrite%n", APP, CapacitySplit.ANNOTATION, raisedTo);
    env.kube().apps().deployments().inNamespace(DriftScenario.NAMESPACE).withName(APP)
        .edit(d -> {
          d.getMetadata().getAnnotations().put(CapacitySplit.ANNOTATION, Integer.toString(raisedTo));
          return d;
        });
    var raised = awaitPlaced(REPLICAS, spotNode, raisedTo);
    var rebalanced = events(APP, "CapacitySplitRebalanced");
    out.printf("   %d pods Ready: %d on on-demand, %d on spot; %d rebalancing eviction(s): %s%n", raised.size(), Played.onDemand(raised),
        Played.spot(raised), rebalanced.size(), rebalanced);

    var typoEvents = Await.until("a Warning Event on Deployment " + TYPO_APP, timeout, () -> {
      var found = events(TYPO_APP, null);
      return found.isEmpty() ? null : found;
    }, helpers::diagnostics);
    boolean typoGated = pods(TYPO_APP).stream().allMatch(p -> p.getSpec().getSchedulingGates() != null
        && p.getSpec().getSchedulingGates().stream().anyMatch(g -> CapacitySplit.GATE.equals(g.getName())));
    out.printf("   Deployment %s: pod still gated %s; %s%n", TYPO_APP, typoGated, typoEvents);
    return new Played(initial, spotNode, afterInterruption, scaledOut, scaledDown, raisedTo, raised, rebalanced, typoGated, typoEvents, pinned);
  }

  static void report(Played played, PrintStream out) {
    List<String> problems = problems(played);
    if (!problems.isEmpty()) {
      throw new IllegalStateException(String.join("; ", problems) + ": " + played);
    }
    out.println("   the split held: at least " + MINIMUM + " of the pods on on-demand nodes in every phase");
  }

  /** What the scenario promises and did not hold, empty when all held. */
  public static List<String> problems(Played played) {
    var problems = new ArrayList<String>();
    check(problems, "initially", played.initial(), CapacitySplit.Minimum.parse(MINIMUM).of(REPLICAS));
    check(problems, "after the interruption", played.afterInterruption(), CapacitySplit.Minimum.parse(MINIMUM).of(REPLICAS));
    check(problems, "scaled out", played.scaledOut(), CapacitySplit.Minimum.parse(MINIMUM).of(SCALED_OUT));
    check(problems, "scaled down", played.scaledDown(), CapacitySplit.Minimum.parse(MINIMUM).of(REPLICAS));
    if (Played.onDemand(played.raised()) < played.raisedTo()) {
      problems.add("raised to " + played.raisedTo() + ": only " + Played.onDemand(played.raised()) + " pods on on-demand");
    }
    if (Played.onDemand(played.scaledDown()) < played.raisedTo() && played.rebalanced().isEmpty()) {
      problems.add("the share rose to " + played.raisedTo() + " without a CapacitySplitRebalanced Event");
    }
    if (!played.typoPodGated()) {
      problems.add("the pod of " + TYPO_APP + " was released despite its unparsable annotation");
    }
    if (played.typoEvents().stream().noneMatch(e -> e.startsWith("CapacitySplitInvalid") && e.contains(CapacitySplit.ANNOTATION))) {
      problems.add("no CapacitySplitInvalid Event naming " + CapacitySplit.ANNOTATION + " on " + TYPO_APP + ": " + played.typoEvents());
    }
    return problems;
  }

  private static void check(List<String> problems, String when, Map<String, String> placement, int required) {
    if (Played.onDemand(placement) < required) {
      problems.add(when + ": " + Played.onDemand(placement) + " pods on on-demand, fewer than " + required);
    }
    if (Played.spot(placement) == 0) {
      problems.add(when + ": no pod on spot, the cheaper rest was not left free");
    }
  }

  private void apply(String manifest) {
    env.kube().load(new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8))).serverSideApply();
  }

  private List<Pod> pods(String app) {
    return env.kube().pods().inNamespace(DriftScenario.NAMESPACE).withLabel("app", app).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
  }

  /** Waits for exactly {@code count} Ready pods of {@link #APP}, none on {@code avoided}; by pod, their node's capacity type. */
  private Map<String, String> awaitPlaced(int count, String avoided) {
    return awaitPlaced(count, avoided, 0);
  }

  /** As {@link #awaitPlaced(int, String)}, and at least {@code onDemand} of them on on-demand nodes. */
  private Map<String, String> awaitPlaced(int count, String avoided, int onDemand) {
    return Await.until(count + " Ready pods of " + APP + (avoided == null ? "" : " off " + avoided)
        + (onDemand == 0 ? "" : ", " + onDemand + " on on-demand"), timeout, () -> {
      var pods = pods(APP);
      boolean ready = pods.size() == count && pods.stream().allMatch(p -> p.getStatus() != null && p.getStatus().getConditions() != null
          && p.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()))
          && !p.getSpec().getNodeName().equals(avoided));
      if (!ready) {
        return null;
      }
      Map<String, String> placement = new TreeMap<>();
      for (Pod p : pods) {
        Node node = env.kube().nodes().withName(p.getSpec().getNodeName()).get();
        placement.put(p.getMetadata().getName(), node == null ? "?" : node.getMetadata().getLabels().getOrDefault(WellKnown.CAPACITY_TYPE_LABEL, "?"));
      }
      return Played.onDemand(placement) >= onDemand ? placement : null;
    }, this::diagnostics);
  }

  /** How many live pods of {@link #APP} carry the on-demand pin in their nodeSelector. */
  private long pinned() {
    return pods(APP).stream().filter(p -> p.getSpec().getNodeSelector() != null
        && WellKnown.CAPACITY_ON_DEMAND.equals(p.getSpec().getNodeSelector().get(WellKnown.CAPACITY_TYPE_LABEL))).count();
  }

  /** The Events on Deployment {@code app} with {@code reason}, as {@code reason: message}. */
  private List<String> events(String app, String reason) {
    return env.kube().v1().events().inNamespace(DriftScenario.NAMESPACE).list().getItems().stream()
        .filter(e -> app.equals(e.getInvolvedObject().getName()) && "Deployment".equals(e.getInvolvedObject().getKind())
            && (reason == null || reason.equals(e.getReason())))
        .map(e -> e.getReason() + ": " + e.getMessage()).toList();
  }

  private String spotNodeWithMostPods() {
    Map<String, Integer> perNode = new TreeMap<>();
    for (Pod p : pods(APP)) {
      Node node = env.kube().nodes().withName(p.getSpec().getNodeName()).get();
      if (node != null && WellKnown.CAPACITY_SPOT.equals(node.getMetadata().getLabels().get(WellKnown.CAPACITY_TYPE_LABEL))) {
        perNode.merge(node.getMetadata().getName(), 1, Integer::sum);
      }
    }
    return perNode.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow(
        () -> new IllegalStateException("no pod of " + APP + " on a spot node: " + diagnostics())).getKey();
  }

  private String diagnostics() {
    var lines = new ArrayList<String>();
    for (Pod p : pods(APP)) {
      lines.add("  pod " + p.getMetadata().getName() + " node=" + p.getSpec().getNodeName() + " nodeSelector=" + p.getSpec().getNodeSelector()
          + " gates=" + p.getSpec().getSchedulingGates() + " phase=" + (p.getStatus() == null ? null : p.getStatus().getPhase()));
    }
    return helpers.diagnostics() + "\n" + String.join("\n", lines);
  }
}

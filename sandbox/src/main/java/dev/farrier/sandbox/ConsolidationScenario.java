package dev.farrier.sandbox;

import dev.farrier.activities.disruption.PodEventRecorder;
import dev.farrier.model.ReplacementResult;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Empty-node consolidation played against the real worker: the blueprint's NodePool with {@code consolidateAfter}
 * {@value #CONSOLIDATE_AFTER}, its Deployment scaled to zero, and the node that is left empty removed once
 * consolidateAfter has passed since its last pod left (the NodeClaim's {@code lastPodEventTime}) and the
 * consolidation still stands when checked again, through a {@code disrupt/<nodeclaim>} workflow with reason
 * {@code empty}; the NodeClaim's {@code Consolidatable} condition says when it became consolidatable.
 */
public final class ConsolidationScenario {
  public static final String CONSOLIDATE_AFTER = "20s";

  private final KubernetesClient kube;
  private final DriftScenario drift;
  private final Duration timeout;

  /** What the consolidation did. */
  public record Consolidated(String nodeClaim, String lastPodEventTime, Map<String, Object> consolidatable,
      ReplacementResult result, Instant emptiedAt, Instant goneAt) {}

  public ConsolidationScenario(KubernetesClient kube, DriftScenario drift, Duration timeout) {
    this.kube = kube;
    this.drift = drift;
    this.timeout = timeout;
  }

  /**
   * The blueprint with the consolidateAfter of this scenario, on-demand only (a spot node is consolidated only by
   * deletion: spot-to-spot replacement is off, as Karpenter's default, and this scenario shows a replacement), and its
   * PDB at {@code maxUnavailable: 1}: the blueprint's {@code minAvailable: 2} allows no eviction of a single pod, so
   * consolidation would rightly leave the node alone.
   */
  public static String edit(String blueprint) {
    String edited = blueprint.replace("consolidateAfter: 1m", "consolidateAfter: " + CONSOLIDATE_AFTER)
        .replace("values: [\"spot\", \"on-demand\"]", "values: [\"on-demand\"]")
        .replace("minAvailable: 2", "maxUnavailable: 1");
    if (edited.equals(blueprint) || edited.contains("\"spot\"") || !edited.contains("maxUnavailable: 1")) {
      throw new IllegalStateException("the blueprint changed: consolidateAfter, the capacity types or the PDB were not edited");
    }
    return edited;
  }

  /** What the underutilized node's replacement did. */
  public record Replaced(ReplacementResult result, String oldType, String newType, DriftScenario.Provisioned replacement) {}

  /**
   * Scales the app to one replica: its node is left underutilized and is replaced by a cheaper one once consolidateAfter
   * has passed, the pod moving onto it.
   */
  public Replaced scaleDownAndAwaitReplacement(DriftScenario.Provisioned node) {
    String oldType = instanceType(node.node());
    kube.apps().deployments().inNamespace(DriftScenario.NAMESPACE).withName(DriftScenario.APP).scale(1);
    var workflowId = drift.awaitReplacementStarted(node);
    ReplacementResult result = drift.awaitResult(workflowId);
    if (result.replacementNode() == null) {
      throw new IllegalStateException("the underutilized node was not replaced: " + result + "\n" + drift.diagnostics());
    }
    Await.until("the " + DriftScenario.APP + " pod Ready on the replacement " + result.replacementNode(), timeout,
        () -> drift.readyAppPods().size() == 1 && drift.readyAppPods().getFirst().getSpec().getNodeName().equals(result.replacementNode()),
        drift::diagnostics);
    var claim = drift.nodeClaim(result.replacementNodeClaim());
    var status = DriftScenario.status(claim);
    var replacement = new DriftScenario.Provisioned(result.replacementNodeClaim(), result.replacementNode(),
        dev.farrier.activities.views.ProviderIds.instanceId(Objects.toString(status.get("providerID"), null)),
        Objects.toString(status.get("imageID"), null), Instant.now());
    return new Replaced(result, oldType, instanceType(result.replacementNode()), replacement);
  }

  private String instanceType(String node) {
    var n = kube.nodes().withName(node).get();
    return n == null ? null : n.getMetadata().getLabels().get("node.kubernetes.io/instance-type");
  }

  /** Prints what the replacement did. */
  public static void report(Replaced r, PrintStream out) {
    out.printf("   underutilized %s replaced by the cheaper %s (%s, nodeclaim %s); outcome %s%n", r.oldType(), r.newType(),
        r.replacement().node(), r.replacement().nodeClaim(), r.result().outcome());
  }

  /** Scales the app to zero and waits until the node it leaves empty and its claim are gone. */
  public Consolidated emptyAndAwaitRemoval(DriftScenario.Provisioned node) {
    kube.apps().deployments().inNamespace(DriftScenario.NAMESPACE).withName(DriftScenario.APP).scale(0);
    var emptiedAt = Instant.now();
    Await.until("the " + DriftScenario.APP + " pods to be gone", timeout,
        () -> kube.pods().inNamespace(DriftScenario.NAMESPACE).withLabel("app", DriftScenario.APP).list().getItems().isEmpty(),
        drift::diagnostics);
    // The claim says when its last pod left and when it becomes consolidatable, before it goes.
    var seen = Await.until("nodeclaim " + node.nodeClaim() + " to be Consolidatable after its last pod left", timeout, () -> {
      var claim = drift.nodeClaim(node.nodeClaim());
      if (claim == null) {
        throw new IllegalStateException("nodeclaim " + node.nodeClaim() + " was removed before it said it is Consolidatable");
      }
      var status = DriftScenario.status(claim);
      var condition = conditions(status).stream().filter(c -> "Consolidatable".equals(c.get("type"))).findFirst().orElse(null);
      var last = Objects.toString(status.get("lastPodEventTime"), null);
      // Events within the dedupe window of the stored one are not written (as Karpenter's): a pod that leaves moments
      // after another arrived counts from the arrival.
      return last != null && Instant.parse(last).isAfter(emptiedAt.minus(PodEventRecorder.DEDUPE).minusSeconds(2)) && condition != null
          && "True".equals(condition.get("status")) ? new Object[] {last, condition} : null;
    }, drift::diagnostics);
    var workflowId = drift.awaitReplacementStarted(node);
    ReplacementResult result = drift.awaitResult(workflowId);
    Await.until("node " + node.node() + " and nodeclaim " + node.nodeClaim() + " to be deleted", timeout,
        () -> kube.nodes().withName(node.node()).get() == null && drift.nodeClaim(node.nodeClaim()) == null, drift::diagnostics);
    @SuppressWarnings("unchecked")
    var condition = (Map<String, Object>) seen[1];
    return new Consolidated(node.nodeClaim(), (String) seen[0], condition, result, emptiedAt, Instant.now());
  }

  /** Prints what happened. */
  public static void report(Consolidated c, PrintStream out) {
    out.printf("   nodeclaim %s: lastPodEventTime %s, Consolidatable=%s (%s)%n", c.nodeClaim(), c.lastPodEventTime(),
        c.consolidatable().get("status"), c.consolidatable().get("message"));
    out.printf("   disrupt/%s: outcome %s; node and nodeclaim gone %.1fs after the scale-down (consolidateAfter %s, checked again"
        + " 15s after it was planned)%n", c.nodeClaim(), c.result().outcome(),
        Duration.between(c.emptiedAt(), c.goneAt()).toMillis() / 1000.0, CONSOLIDATE_AFTER);
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> conditions(Map<String, Object> status) {
    return status.get("conditions") instanceof List<?> list ? (List<Map<String, Object>>) list : List.of();
  }
}

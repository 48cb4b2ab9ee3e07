package dev.farrier.sandbox;

import dev.farrier.model.ReplacementResult;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Forceful expiry played against the real worker, as Karpenter v1 expires a node: the blueprint's NodePool with
 * {@code expireAfter: }{@value #EXPIRE_AFTER} and {@code terminationGracePeriod: }{@value #GRACE}, its PDB at
 * {@code maxUnavailable: 0}. Once the node is older than expireAfter, its {@code disrupt/<nodeclaim>} drains it at once
 * (no budget, no waiting for the replacement, which launches in parallel); the PDB holds the evictions, and the drain
 * says so, until the grace period ends; then the pods are deleted, come back on the replacement, and the node goes.
 */
public final class ExpiryScenario {
  public static final String EXPIRE_AFTER = "45s";
  public static final String GRACE = "30s";

  private final KubernetesClient kube;
  private final DriftScenario drift;
  private final Duration timeout;

  /** What the expiry did. */
  public record Expired(ReplacementResult result, Instant drainStartedAt, Instant podsGoneAt, Instant replacementCreatedAt,
      List<String> blockedBy, String newNode) {}

  public ExpiryScenario(KubernetesClient kube, DriftScenario drift, Duration timeout) {
    this.kube = kube;
    this.drift = drift;
    this.timeout = timeout;
  }

  /** The blueprint with this scenario's expireAfter and grace period, its PDB allowing no eviction. */
  public static String edit(String blueprint) {
    String edited = blueprint
        .replace("    spec:\n      nodeClassRef:", "    spec:\n      expireAfter: " + EXPIRE_AFTER + "\n      terminationGracePeriod: " + GRACE
            + "\n      nodeClassRef:")
        .replace("minAvailable: 2", "maxUnavailable: 0");
    if (!edited.contains("expireAfter: " + EXPIRE_AFTER) || !edited.contains("maxUnavailable: 0")) {
      throw new IllegalStateException("the blueprint changed: expireAfter or the PDB were not edited");
    }
    return edited;
  }

  /** Waits until the node expired, was drained past its PDB once the grace period ended, and is gone. */
  public Expired awaitExpiry(DriftScenario.Provisioned node) {
    Set<String> original = drift.readyAppPods().stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
    var workflowId = drift.awaitReplacementStarted(node);
    var started = Await.until("the expiry's drain to start on " + node.node(), timeout,
        () -> event(node.node(), "Cordoned"), drift::diagnostics).getMetadata().getCreationTimestamp();
    var podsGone = Await.until("the original " + DriftScenario.APP + " pods to be gone from " + node.node(), timeout, () -> {
      var left = kube.pods().inNamespace(DriftScenario.NAMESPACE).withLabel("app", DriftScenario.APP).list().getItems().stream()
          .filter(p -> original.contains(p.getMetadata().getUid()) && p.getMetadata().getDeletionTimestamp() == null).count();
      return left == 0 ? Instant.now() : null;
    }, drift::diagnostics);
    ReplacementResult result = drift.awaitResult(workflowId);
    Await.until("node " + node.node() + " and nodeclaim " + node.nodeClaim() + " to be deleted", timeout,
        () -> kube.nodes().withName(node.node()).get() == null && drift.nodeClaim(node.nodeClaim()) == null, drift::diagnostics);
    var newNode = Await.until(DriftScenario.REPLICAS + " " + DriftScenario.APP + " pods Ready off the expired node", timeout, () -> {
      var pods = drift.readyAppPods();
      var nodes = pods.stream().map(p -> p.getSpec().getNodeName()).distinct().toList();
      return pods.size() == DriftScenario.REPLICAS && !nodes.contains(node.node()) ? nodes.getFirst() : null;
    }, drift::diagnostics);
    var replacement = result.replacementNodeClaim() == null ? null : drift.nodeClaim(result.replacementNodeClaim());
    List<String> blockedBy = kube.v1().events().inAnyNamespace().list().getItems().stream()
        .filter(e -> node.node().equals(e.getInvolvedObject().getName()) && "DrainBlocked".equals(e.getReason()))
        .map(Event::getMessage).distinct().toList();
    return new Expired(result, Instant.parse(started), podsGone,
        replacement == null ? null : Instant.parse(replacement.getMetadata().getCreationTimestamp()), blockedBy, newNode);
  }

  private Event event(String node, String reason) {
    return kube.v1().events().inAnyNamespace().list().getItems().stream()
        .filter(e -> node.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()))
        .min(Comparator.comparing(e -> e.getMetadata().getCreationTimestamp())).orElse(null);
  }

  /** Prints what happened. */
  public static void report(Expired e, PrintStream out) {
    out.printf("   drain started %s; held by: %s%n", e.drainStartedAt(), e.blockedBy().isEmpty() ? "(nothing)" : e.blockedBy().getFirst());
    out.printf("   original pods gone %.1fs after the drain started (terminationGracePeriod %s); replacement %s created %s, before"
        + " the grace period ended: launched in parallel%n", Duration.between(e.drainStartedAt(), e.podsGoneAt()).toMillis() / 1000.0,
        GRACE, e.result().replacementNodeClaim(), e.replacementCreatedAt());
    out.printf("   outcome %s; pods Ready on %s%n", e.result().outcome(), e.newNode());
  }
}

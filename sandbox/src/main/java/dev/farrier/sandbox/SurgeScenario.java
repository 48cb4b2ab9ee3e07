package dev.farrier.sandbox;

import dev.farrier.model.ReplacementResult;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.replacement.ReplacementProgress;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.ByteArrayInputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A single-replica Deployment replaced without an outage: the drift blueprint's Deployment at one replica under a PDB
 * {@code minAvailable: 1}, its NodePool opted in to surges ({@code farrier.dev/surge: "true"}). Its strategy first has
 * {@code maxSurge: 0}: the drifted node's drain refuses to surge it (SurgeRefused, the blocker says why) and waits for
 * the PDB as before. Given {@code maxSurge: 1, maxUnavailable: 0}, the next pass surges it: a rollout restart, the new
 * pod starts on the replacement node and is Ready before the old one leaves, and the replacement completes. (Once the
 * new pod is Ready the PDB allows one disruption, so a drain pass may evict the old pod just before the Deployment
 * controller scales it down: either way a Ready pod serves throughout.)
 */
public final class SurgeScenario {
  public static final String ANNOTATION = "farrier.dev/surge";
  public static final String DEPLOYMENT = DriftScenario.NAMESPACE + "/" + DriftScenario.APP;

  /**
   * What the play saw.
   *
   * @param refused          the replacement's progress once it named the refusal
   * @param refusedEvents    the SurgeRefused Events on the Deployment and the old Node
   * @param startedEvents    the SurgeStarted Events on the Deployment and the old Node
   * @param oldPod           the pod the PDB held, and its UID
   * @param surgedPod        the Deployment's {@code farrier.dev/surged-pod} mark
   * @param restartedAt      the pod template's {@code kubectl.kubernetes.io/restartedAt}
   * @param newPod           the pod Ready at the end, and its node
   * @param minReady         the fewest Ready pods of the app at any moment from the switch to the end
   */
  public record Played(DriftScenario.Provisioned old, ReplacementProgress refused, List<Event> refusedEvents,
      List<Event> startedEvents, String oldPod, String oldPodUid, String surgedPod, String restartedAt, String newPod,
      String newNode, int minReady, ReplacementResult result) {}

  private final SandboxEnvironment env;
  private final DriftScenario drift;
  private final Duration timeout;

  public SurgeScenario(SandboxEnvironment env, DriftScenario drift, Duration timeout) {
    this.env = env;
    this.drift = drift;
    this.timeout = timeout;
  }

  /** The blueprint at one replica, a PDB allowing no eviction, maxSurge 0, and its NodePool opted in to surges. */
  static String edit(String manifest) {
    String edited = replaceOnce(manifest, "  replicas: " + DriftScenario.REPLICAS + "\n",
        "  replicas: 1\n  strategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: 0\n      maxUnavailable: 1\n");
    edited = replaceOnce(edited, "minAvailable: " + DriftScenario.MIN_AVAILABLE, "minAvailable: 1");
    return replaceOnce(edited, "  name: " + DriftScenario.NODE_POOL + "\n",
        "  name: " + DriftScenario.NODE_POOL + "\n  annotations:\n    " + ANNOTATION + ": \"true\"\n");
  }

  private static String replaceOnce(String text, String from, String to) {
    int at = text.indexOf(from);
    if (at < 0 || text.indexOf(from, at + 1) >= 0) {
      throw new IllegalStateException("the drift blueprint no longer reads '" + from.strip() + "' exactly once");
    }
    return text.replace(from, to);
  }

  public Played play(PrintStream out) {
    try (var recorder = new ClusterRecorder(env.kube(), DriftScenario.NAMESPACE, DriftScenario.APP)) {
      out.println("== applying the blueprint at 1 replica, PDB minAvailable: 1, maxSurge: 0, NodePool " + DriftScenario.NODE_POOL
          + " annotated " + ANNOTATION + ": \"true\"");
      var manifest = drift.blueprintFor(SurgeScenario::edit, Sandbox.FROM_VERSION);
      env.kube().load(new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8))).serverSideApply();
      Pod oldPod = Await.until("one " + DriftScenario.APP + " pod Ready on a Farrier node", timeout, () -> {
        var ready = drift.readyAppPods();
        return ready.size() == 1 && drift.farrierNode(ready.getFirst().getSpec().getNodeName()) ? ready.getFirst() : null;
      }, drift::diagnostics);
      String node = oldPod.getSpec().getNodeName();
      var claim = drift.claimOfNode(node);
      var old = new DriftScenario.Provisioned(claim.getMetadata().getName(), node, DriftScenario.instanceId(claim),
          DriftScenario.imageId(claim), Instant.now());
      out.printf("   pod %s Ready on %s (nodeclaim %s)%n", oldPod.getMetadata().getName(), node, old.nodeClaim());

      out.println("== switching the EC2NodeClass to Kubernetes " + Sandbox.TO_VERSION + " AMIs: the node drifts");
      Instant switchedAt = drift.switchImages(Sandbox.TO_VERSION);
      String workflowId = drift.awaitReplacementStarted(old);
      var replacement = env.temporal().newWorkflowStub(NodeReplacementWorkflow.class, workflowId);
      ReplacementProgress refused = Await.until(workflowId + " naming the refused surge", timeout, () -> {
        var p = replacement.progress();
        return p.blockedBy() != null && p.blockedBy().contains("refused") ? p : null;
      }, drift::diagnostics);
      out.println("   " + workflowId + " blocked by: " + refused.blockedBy());
      List<Event> refusedEvents = Await.until("SurgeRefused on the Deployment and the Node", timeout, () -> {
        var events = surgeEvents("SurgeRefused", node);
        return events.size() >= 2 ? events : null;
      }, drift::diagnostics);
      refusedEvents.forEach(e -> print(out, e));

      out.println("== giving " + DEPLOYMENT + " maxSurge: 1, maxUnavailable: 0: the next drain pass surges it");
      env.kube().apps().deployments().inNamespace(DriftScenario.NAMESPACE).withName(DriftScenario.APP)
          .patch(PatchContext.of(PatchType.JSON_MERGE),
              "{\"spec\":{\"strategy\":{\"rollingUpdate\":{\"maxSurge\":1,\"maxUnavailable\":0}}}}");
      List<Event> startedEvents = Await.until("SurgeStarted on the Deployment and the Node", timeout, () -> {
        var events = surgeEvents("SurgeStarted", node);
        return events.size() >= 2 ? events : null;
      }, drift::diagnostics);
      startedEvents.forEach(e -> print(out, e));
      ReplacementResult result = drift.awaitResult(workflowId);
      Pod newPod = Await.until("one " + DriftScenario.APP + " pod Ready on another node", timeout, () -> {
        var ready = drift.readyAppPods();
        return ready.size() == 1 && !node.equals(ready.getFirst().getSpec().getNodeName()) ? ready.getFirst() : null;
      }, drift::diagnostics);
      var deployment = env.kube().apps().deployments().inNamespace(DriftScenario.NAMESPACE).withName(DriftScenario.APP).get();
      Map<String, String> marks = deployment.getMetadata().getAnnotations();
      Map<String, String> template = deployment.getSpec().getTemplate().getMetadata().getAnnotations();
      int minReady = recorder.minReadySince(switchedAt);
      out.printf("   new pod %s Ready on %s; fewest Ready %s pods at any moment since the switch: %d%n",
          newPod.getMetadata().getName(), newPod.getSpec().getNodeName(), DriftScenario.APP, minReady);
      out.printf("   replacement %s: outcome %s, %d pod(s) evicted by Farrier%n", workflowId, result.outcome(), result.evictedPods());
      return new Played(old, refused, refusedEvents, startedEvents, oldPod.getMetadata().getName(), oldPod.getMetadata().getUid(),
          marks == null ? null : marks.get("farrier.dev/surged-pod"),
          template == null ? null : template.get("kubectl.kubernetes.io/restartedAt"), newPod.getMetadata().getName(),
          newPod.getSpec().getNodeName(), minReady, result);
    }
  }

  /** Farrier's Events of {@code reason} about the app's Deployment and the old node. */
  private List<Event> surgeEvents(String reason, String node) {
    return env.kube().v1().events().inAnyNamespace().list().getItems().stream()
        .filter(e -> reason.equals(e.getReason()) && e.getInvolvedObject() != null
            && (("Deployment".equals(e.getInvolvedObject().getKind()) && DriftScenario.APP.equals(e.getInvolvedObject().getName()))
                || ("Node".equals(e.getInvolvedObject().getKind()) && node.equals(e.getInvolvedObject().getName()))))
        .toList();
  }

  private static void print(PrintStream out, Event event) {
    out.printf("   Event %s/%s %s %s: %s%n", event.getInvolvedObject().getKind(), event.getInvolvedObject().getName(),
        event.getType(), event.getReason(), event.getMessage());
  }
}

package dev.farrier.sandbox;

import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.replacement.ReplacementProgress;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.temporal.client.WorkflowClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The most common stuck replacement, played on the drift blueprint: the inflate pods' PodDisruptionBudget allows no
 * eviction, so the drifted node's replacement launches, cordons the old node and then can only wait. The operator
 * sees which PDB holds which pods, relaxes it, and the drain goes on by itself.
 */
public final class BlockedDrainScenario {
  /** How the PodDisruptionBudget forbids every eviction. */
  public enum Budget {
    /** {@code maxUnavailable: 0}. */
    MAX_UNAVAILABLE_ZERO("maxUnavailable: 0"),
    /** {@code minAvailable} equal to the replicas. */
    MIN_AVAILABLE_ALL("minAvailable: " + DriftScenario.REPLICAS);

    final String spec;

    Budget(String spec) {
      this.spec = spec;
    }
  }

  public static final String PDB = "inflate-pdb";

  /** The replacement held by the PDB: when it started draining and when its blocker was first named. */
  public record Blocked(String workflowId, ReplacementProgress progress, Instant drainingAt, Instant namedAt) {}

  private final KubernetesClient kube;
  private final WorkflowClient temporal;
  private final DriftScenario drift;
  private final Duration timeout;

  public BlockedDrainScenario(KubernetesClient kube, WorkflowClient temporal, DriftScenario drift, Duration timeout) {
    this.kube = kube;
    this.temporal = temporal;
    this.drift = drift;
    this.timeout = timeout;
  }

  /** The blueprint with its PDB replaced by one that forbids every eviction. */
  public static UnaryOperator<String> blocking(Budget budget) {
    return manifest -> {
      String edited = manifest.replace("minAvailable: " + DriftScenario.MIN_AVAILABLE, budget.spec);
      if (edited.equals(manifest)) {
        throw new IllegalStateException("the blueprint's PDB no longer reads minAvailable: " + DriftScenario.MIN_AVAILABLE);
      }
      return edited;
    };
  }

  /** Waits until the replacement of {@code old} drains and names its blocker; {@code drainingAt} is when it started to. */
  public Blocked awaitBlocked(DriftScenario.Provisioned old) {
    String workflowId = drift.awaitReplacementStarted(old);
    NodeReplacementWorkflow replacement = temporal.newWorkflowStub(NodeReplacementWorkflow.class, workflowId);
    Await.until(workflowId + " draining", timeout, () -> "Draining".equals(replacement.progress().phase()), drift::diagnostics);
    Instant drainingAt = Instant.now();
    ReplacementProgress named = Await.until(workflowId + " naming what blocks its drain", timeout,
        () -> {
          ReplacementProgress p = replacement.progress();
          return p.blocker() != null ? p : null;
        }, drift::diagnostics);
    return new Blocked(workflowId, named, drainingAt, Instant.now());
  }

  /** Gives the PDB the blueprint's {@code minAvailable: 2} back, so one pod at a time may be evicted. */
  public Instant relax() {
    kube.policy().v1().podDisruptionBudget().inNamespace(DriftScenario.NAMESPACE).withName(PDB)
        .patch(PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"maxUnavailable\":null,\"minAvailable\":" + DriftScenario.MIN_AVAILABLE + "}}");
    return Instant.now();
  }

  /** Waits until the drain evicted its first pod after the PDB was relaxed. */
  public Instant awaitFirstEviction(Blocked blocked) {
    NodeReplacementWorkflow replacement = temporal.newWorkflowStub(NodeReplacementWorkflow.class, blocked.workflowId());
    Await.until("a pod evicted by " + blocked.workflowId(), timeout, () -> {
      ReplacementProgress p = replacement.progress();
      return !p.evicted().isEmpty() || p.phase().equals("Terminating") || p.phase().equals("Finalizing");
    }, drift::diagnostics);
    return Instant.now();
  }

  /** The Events Farrier recorded about a node or NodeClaim with the given reason. */
  public List<Event> events(String kind, String name, String reason) {
    return kube.v1().events().inAnyNamespace().list().getItems().stream()
        .filter(e -> e.getInvolvedObject() != null && kind.equals(e.getInvolvedObject().getKind())
            && name.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()))
        .toList();
  }
}

package dev.farrier.activities.drain;

import dev.farrier.activities.kube.WorkloadSurges;
import dev.farrier.workflows.EventReasons;
import dev.farrier.workflows.activities.SurgeOutcome;
import dev.farrier.workflows.activities.SurgeOutcome.Result;
import dev.farrier.workflows.activities.SurgeRequest;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Surges a pod a PodDisruptionBudget keeps on a draining node: reads the facts ({@link SurgeReads}), asks
 * {@link SurgeRules}, and acts on a start with a rollout restart of its Deployment, marked with the pod's UID so the
 * surge is started once per pod. It never evicts or deletes a pod: the Deployment controller removes the old one
 * once the new one is Ready.
 */
final class Surges {
  private static final Logger log = LoggerFactory.getLogger(Surges.class);
  /** A Deployment changed between the read and the restart is read again and decided again, at most this often. */
  private static final int ATTEMPTS = 3;
  /** A pass's surges stop starting new ones after this; each one's calls are bounded, so the call ends within 45 s. */
  static final Duration PASS_BUDGET = Duration.ofSeconds(20);

  private final WorkloadSurges api;
  private final Clock clock;
  private final SurgeReads reads;
  private final Runnable beat;

  Surges(WorkloadSurges api, Clock clock, Runnable beat) {
    this.api = api;
    this.clock = clock;
    this.beat = beat;
    this.reads = new SurgeReads(api, beat);
  }

  /**
   * For one drain pass on a node of {@code nodePool}: whether the drain should ask for a surge of a pod a PDB just
   * refused. Decided first from what needs no read of its owners: the pod carries its template's
   * {@code farrier.dev/surge} ({@code "false"}: no; absent: only when the NodePool says {@code "true"}, read once a
   * pass); then a Deployment must own it through its ReplicaSet (each ReplicaSet and its Deployment read once a pass)
   * and opt in (or carry a value the surge then refuses, named).
   */
  Predicate<Pod> candidates(String nodePool) {
    Supplier<String> poolSurge = new Supplier<>() {
      private boolean read;
      private String value;

      @Override
      public String get() {
        if (!read) {
          value = reads.nodePoolAnnotation(nodePool);
          read = true;
        }
        return value;
      }
    };
    Map<String, Optional<Deployment>> byReplicaSet = new HashMap<>();
    return pod -> {
      String own = SurgeReads.annotation(pod.getMetadata().getAnnotations());
      if ("false".equals(own)) {
        return false;
      }
      String pool = poolSurge.get();
      if (own == null && !"true".equals(pool)) {
        return false;
      }
      String replicaSet = SurgeReads.controller(pod, "ReplicaSet").orElse(null);
      if (replicaSet == null) {
        return false;
      }
      Optional<Deployment> deployment = byReplicaSet.computeIfAbsent(pod.getMetadata().getNamespace() + "/" + replicaSet,
          k -> reads.deploymentOf(pod));
      return deployment.isPresent() && SurgeRules.optIn(SurgeReads.optIn(deployment.get(), pool)) != SurgeRules.OptIn.OUT;
    };
  }

  /**
   * The answers for a pass's pods, in order: it stops starting surges once it has run for {@link #PASS_BUDGET} (the
   * activity's StartToClose is 45 s) and answers for the pods it got to, always the first. A pod whose reads fail
   * (not a 403: that is a refusal) gets no answer this pass rather than failing the others'.
   */
  List<SurgeOutcome> surge(List<SurgeRequest> requests) {
    Instant deadline = clock.instant().plus(PASS_BUDGET);
    List<SurgeOutcome> outcomes = new ArrayList<>();
    for (SurgeRequest request : requests) {
      if (!outcomes.isEmpty() && clock.instant().isAfter(deadline)) {
        log.atInfo().setMessage("surge pass out of time, the rest next pass").addKeyValue("node", request.nodeName())
            .addKeyValue("left", requests.size() - outcomes.size()).log();
        break;
      }
      beat.run();
      try {
        outcomes.add(surge(request));
      } catch (KubernetesClientException e) {
        // Proves nothing about this pod: no answer, so its last one stands, and the pass goes on with the others.
        log.atWarn().setMessage("surge unknown this pass").addKeyValue("node", request.nodeName())
            .addKeyValue("pod", request.pod()).addKeyValue("error", e.getMessage()).log();
      }
    }
    return outcomes;
  }

  /**
   * The surge answer for the request's pod. What can never succeed by retrying (a key that names no pod, a 403: the
   * worker's RBAC) is a refusal with the reason, not a failure the activity would retry every pass.
   */
  SurgeOutcome surge(SurgeRequest request) {
    int slash = request.pod().indexOf('/');
    if (slash <= 0 || slash == request.pod().length() - 1) {
      return new SurgeOutcome(request.pod(), null, Result.REFUSED, "\"" + request.pod() + "\" is not a pod's namespace/name");
    }
    try {
      return surge(request, request.pod().substring(0, slash), request.pod().substring(slash + 1));
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_FORBIDDEN) {
        throw e;
      }
      String detail = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
      SurgeOutcome refused = new SurgeOutcome(request.pod(), null, Result.REFUSED,
          "Farrier is not allowed to read or restart the workload (HTTP 403): " + detail);
      log.atWarn().setMessage("surge forbidden").addKeyValue("node", request.nodeName()).addKeyValue("pod", request.pod())
          .addKeyValue("reason", refused.reason()).log();
      return refused;
    }
  }

  private SurgeOutcome surge(SurgeRequest request, String namespace, String name) {
    Optional<Pod> pod = api.readPod(namespace, name);
    if (pod.isEmpty()) {
      return new SurgeOutcome(request.pod(), null, Result.NOT_APPLICABLE, "the pod is gone");
    }
    String nodePoolAnnotation = reads.nodePoolAnnotation(request.nodePool());
    for (int attempt = 1; ; attempt++) {
      Optional<Deployment> deployment = reads.deploymentOf(pod.get());
      if (deployment.isEmpty()) {
        return new SurgeOutcome(request.pod(), null, Result.NOT_APPLICABLE, "no Deployment owns it");
      }
      SurgeFacts facts = reads.facts(pod.get(), deployment.get(), nodePoolAnnotation);
      SurgeRules.Decision decision = SurgeRules.decide(facts);
      beat.run();
      if (decision.result() == Result.STARTED && !restart(deployment.get(), pod.get())) {
        if (attempt < ATTEMPTS) {
          beat.run();
          continue;
        }
        decision = SurgeRules.Decision.refuse("the Deployment kept changing while Farrier restarted it; tried again next pass");
      }
      SurgeOutcome outcome = new SurgeOutcome(request.pod(), facts.deployment(), decision.result(), decision.reason());
      log.atInfo().setMessage("surge").addKeyValue("node", request.nodeName()).addKeyValue("nodeclaim", request.nodeClaim())
          .addKeyValue("pod", request.pod()).addKeyValue("deployment", facts.deployment())
          .addKeyValue("result", outcome.result()).addKeyValue("reason", outcome.reason())
          .addKeyValue("rollout", facts.rollout()).log();
      SurgeOutcome previous = request.previous();
      boolean stillSurging = outcome.surging() && previous != null && previous.surging();
      if (!outcome.sameAs(previous) && !stillSurging) {
        recordEvents(request, deployment.get(), outcome);
      }
      return outcome;
    }
  }

  /** {@code kubectl rollout restart}'s annotation, and this pod's UID as the mark that it is surged. */
  private boolean restart(Deployment deployment, Pod pod) {
    return api.restartDeployment(deployment,
        Map.of(SurgeRules.SURGED_POD_ANNOTATION, pod.getMetadata().getUid()),
        Map.of(SurgeRules.RESTARTED_AT_ANNOTATION, clock.instant().truncatedTo(ChronoUnit.SECONDS).toString()));
  }

  /** SurgeStarted, SurgeRefused or SurgeStalled on the Deployment and the Node, each best effort. */
  private void recordEvents(SurgeRequest request, Deployment deployment, SurgeOutcome outcome) {
    String which = "deployment " + outcome.deployment() + " for pod " + request.pod() + " on draining node " + request.nodeName();
    String type = EventReasons.WARNING;
    String reason;
    String message;
    switch (outcome.result()) {
      case STARTED, SURGING -> {
        type = EventReasons.NORMAL;
        reason = EventReasons.SURGE_STARTED;
        message = "surging " + which + ": rollout restart; its new pod starts on another node and the Deployment controller "
            + "removes the old one once the new one is Ready";
      }
      case REFUSED -> {
        reason = EventReasons.SURGE_REFUSED;
        message = "cannot surge " + which + ": " + outcome.reason() + "; the drain waits for its PodDisruptionBudget";
      }
      case STALLED -> {
        reason = EventReasons.SURGE_STALLED;
        message = "surge of " + which + " stalled: " + outcome.reason();
      }
      default -> {
        return;
      }
    }
    List<HasMetadata> involved = new ArrayList<>(List.of(deployment));
    try {
      beat.run();
      api.readNode(request.nodeName()).ifPresent(involved::add);
    } catch (RuntimeException e) {
      log.atWarn().setMessage("surge Event on the node not recorded").addKeyValue("node", request.nodeName())
          .addKeyValue("reason", reason).addKeyValue("error", e.getMessage()).log();
    }
    for (HasMetadata object : involved) {
      try {
        beat.run();
        api.recordEvent(object, type, reason, message, beat);
      } catch (RuntimeException e) {
        log.atWarn().setMessage("surge Event not recorded").addKeyValue("object", object.getKind() + " " + SurgeReads.key(object))
            .addKeyValue("reason", reason).addKeyValue("error", e.getMessage()).log();
      }
    }
  }
}

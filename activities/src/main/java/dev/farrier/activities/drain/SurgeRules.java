package dev.farrier.activities.drain;

import dev.farrier.model.WellKnown;
import dev.farrier.workflows.activities.SurgeOutcome.Result;
import io.fabric8.kubernetes.api.model.IntOrString;
import java.util.List;

/**
 * Whether a pod a PodDisruptionBudget keeps on a draining node may be surged, the one place these rules live; pure,
 * so each is unit-tested. A surge is a rollout restart of the pod's Deployment: safe only when the Deployment
 * controller is bound to start the new pod before it stops the old one, and the new pod can run on another node.
 * <ul>
 *   <li>Opt-in: {@code farrier.dev/surge: "true"} on the Deployment's pod template, or on the NodePool; the
 *       template's {@code "false"} opts the workload out of its NodePool's {@code "true"}. Any other value on the workload is
 *       refused, named; one on the NodePool opts no pod in (the NodePool's validation reports it once).</li>
 *   <li>Once per pod: the Deployment marked with this pod's UID is a surge already started; it is reported (waiting;
 *       stalled once the Deployment's progress deadline passed, once it was paused, or once its rollout finished with
 *       the pod still there) and never restarted again.</li>
 *   <li>Refused: more or fewer than one replica (a restart replaces every pod to move one); a Deployment another
 *       controller owns, unless it opted in itself; a paused Deployment; strategy Recreate; a RollingUpdate whose
 *       maxSurge resolves to 0 or whose maxUnavailable resolves above 0 (the controller could stop the old pod first:
 *       an outage); a ReadWriteOnce (or ReadWriteOncePod) volume, or one pinned by node affinity (two pods on two nodes
 *       cannot share it); a rollout of the Deployment already in progress (never two at once).</li>
 * </ul>
 */
final class SurgeRules {
  /** The annotation that opts a NodePool's pods, or one workload, in to a surge (or a workload out). */
  static final String ANNOTATION = WellKnown.SURGE_ANNOTATION;
  /** On the Deployment: the UID of the pod Farrier's last surge of it was for. */
  static final String SURGED_POD_ANNOTATION = "farrier.dev/surged-pod";
  /** What {@code kubectl rollout restart} writes on the pod template. */
  static final String RESTARTED_AT_ANNOTATION = "kubectl.kubernetes.io/restartedAt";
  private static final String DEFAULT_STRATEGY_PERCENT = "25%";
  private static final int DEFAULT_PROGRESS_DEADLINE_SECONDS = 600;

  private SurgeRules() {}

  /** The answer, and why when it is not a start. */
  record Decision(Result result, String reason) {
    static Decision start() {
      return new Decision(Result.STARTED, null);
    }

    static Decision refuse(String reason) {
      return new Decision(Result.REFUSED, reason);
    }
  }

  /** Whether the workload asks for surges: opted in, out, or an annotation value that means neither. */
  enum OptIn { IN, OUT, INVALID }

  /**
   * The workload's {@code "false"} wins, then an invalid value on the workload; a NodePool value other than
   * {@code "true"} opts nothing in (an invalid one is the NodePool's validation's to report, once, not every pod's).
   */
  static OptIn optIn(SurgeFacts.OptIn annotations) {
    if ("false".equals(annotations.template())) {
      return OptIn.OUT;
    }
    if (invalidValue(annotations) != null) {
      return OptIn.INVALID;
    }
    return optedInItself(annotations) || "true".equals(annotations.nodePool()) ? OptIn.IN : OptIn.OUT;
  }

  private static boolean optedInItself(SurgeFacts.OptIn annotations) {
    return "true".equals(annotations.template());
  }

  static Decision decide(SurgeFacts facts) {
    switch (optIn(facts.optIn())) {
      case OUT -> {
        return new Decision(Result.NOT_APPLICABLE, "not opted in to surges (" + ANNOTATION + ")");
      }
      case INVALID -> {
        return Decision.refuse(ANNOTATION + " must be \"true\" or \"false\", not \"" + invalidValue(facts.optIn()) + "\"");
      }
      case IN -> { }
    }
    int replicas = facts.replicas() == null ? 1 : facts.replicas();
    SurgeFacts.Rollout rollout = facts.rollout();
    if (facts.podUid().equals(facts.surgedPod())) {
      return inFlight(facts, replicas);
    }
    if (replicas != 1) {
      return Decision.refuse("the Deployment has " + replicas + " replicas: a rollout restart would replace every one of "
          + "them to move one; only single-replica Deployments are surged");
    }
    if (facts.managedBy() != null && !optedInItself(facts.optIn())) {
      return Decision.refuse("the Deployment is managed by " + facts.managedBy() + ", which may write its template back "
          + "over a restart: opt the Deployment in itself (" + ANNOTATION + ": \"true\" on its pod template) to surge it");
    }
    if (facts.paused()) {
      return Decision.refuse("the Deployment is paused: its controller would not start a new pod");
    }
    if ("Recreate".equals(facts.strategy())) {
      return Decision.refuse("strategy Recreate stops the old pod before the new one starts");
    }
    Integer maxSurge = resolve(facts.maxSurge(), replicas, true);
    Integer maxUnavailable = resolve(facts.maxUnavailable(), replicas, false);
    if (maxSurge == null) {
      return Decision.refuse("maxSurge \"" + words(facts.maxSurge()) + "\" is neither an integer nor a percentage");
    }
    if (maxUnavailable == null) {
      return Decision.refuse("maxUnavailable \"" + words(facts.maxUnavailable()) + "\" is neither an integer nor a percentage");
    }
    if (maxSurge == 0) {
      return Decision.refuse("maxSurge " + words(facts.maxSurge()) + " resolves to 0 for " + replicas
          + " replica(s): no new pod may start before the old one goes");
    }
    if (maxUnavailable > 0) {
      return Decision.refuse("maxUnavailable " + words(facts.maxUnavailable()) + " resolves to " + maxUnavailable + " for "
          + replicas + " replica(s): the controller may stop the old pod before the new one is Ready");
    }
    for (SurgeFacts.Volume volume : facts.volumes()) {
      List<String> shared = volume.accessModes().stream()
          .filter(m -> m.equals("ReadWriteOnce") || m.equals("ReadWriteOncePod")).toList();
      if (!shared.isEmpty()) {
        return Decision.refuse("the pod mounts PersistentVolumeClaim " + volume.claim() + " (" + shared.getFirst()
            + "): a new pod on another node cannot share it");
      }
      if (volume.pinnedTo() != null) {
        return Decision.refuse("the pod mounts PersistentVolumeClaim " + volume.claim() + ", whose volume is pinned to "
            + volume.pinnedTo() + ": a new pod elsewhere may never start");
      }
    }
    if (!settled(rollout, replicas)) {
      // No counts here: the reason is in the Event's name, and a changing count would make a new Event each pass.
      return Decision.refuse("the Deployment is not settled, a rollout may be in progress: one at a time");
    }
    return Decision.start();
  }

  /**
   * The surge of this pod was started: waiting for the controller, unless it can no longer come. Stalled when the
   * progress deadline passed, when the Deployment was paused since (its controller starts no pod), or when its rollout
   * finished with this pod still there and not terminating (the template was written back: a GitOps tool, an operator).
   */
  private static Decision inFlight(SurgeFacts facts, int replicas) {
    SurgeFacts.Rollout rollout = facts.rollout();
    if (rollout.progressDeadlineExceeded()) {
      int deadline = rollout.progressDeadlineSeconds() == null ? DEFAULT_PROGRESS_DEADLINE_SECONDS : rollout.progressDeadlineSeconds();
      return new Decision(Result.STALLED, "its new pod did not become Ready within the Deployment's progressDeadlineSeconds ("
          + deadline + "s); Farrier does not surge it again: see the new pod's Events, or force the drain");
    }
    if (facts.paused()) {
      return new Decision(Result.STALLED, "the Deployment was paused after the surge started: its controller starts no new "
          + "pod while it is paused; resume it, or force the drain");
    }
    if (!facts.podLeaving() && settled(rollout, replicas)) {
      return new Decision(Result.STALLED, "the Deployment's rollout finished without replacing the pod (its template "
          + "reverted?); Farrier does not surge it again: see the Deployment's history, or force the drain");
    }
    return new Decision(Result.SURGING, null);
  }

  /** The controller observed the Deployment's generation and every replica is updated and available, none extra. */
  private static boolean settled(SurgeFacts.Rollout rollout, int replicas) {
    return rollout.observedGeneration() >= rollout.generation() && rollout.updatedReplicas() >= replicas
        && rollout.replicas() <= replicas && rollout.availableReplicas() >= replicas;
  }

  /**
   * maxSurge or maxUnavailable as the Deployment controller resolves it for {@code replicas} (null: its default, 25%):
   * an integer as it is, a percentage rounded up for maxSurge and down for maxUnavailable. (The controller makes
   * maxUnavailable 1 when both are 0; a maxSurge of 0 is refused before that matters.) Null when the value is a string
   * that is no percentage, which the controller would refuse too.
   */
  static Integer resolve(IntOrString value, int replicas, boolean surge) {
    if (value != null && value.getIntVal() != null) {
      return value.getIntVal();
    }
    String written = value == null || value.getStrVal() == null ? DEFAULT_STRATEGY_PERCENT : value.getStrVal();
    if (!written.endsWith("%")) {
      return null;
    }
    try {
      double share = Integer.parseInt(written.substring(0, written.length() - 1)) * replicas / 100.0;
      return (int) (surge ? Math.ceil(share) : Math.floor(share));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** A rolling-update field in a refusal's words, as written (its default, 25%, when unset). */
  private static String words(IntOrString value) {
    if (value == null || (value.getIntVal() == null && value.getStrVal() == null)) {
      return DEFAULT_STRATEGY_PERCENT;
    }
    return value.getIntVal() != null ? value.getIntVal().toString() : value.getStrVal();
  }

  /** The template's value of the annotation when it is neither "true" nor "false", or null. */
  private static String invalidValue(SurgeFacts.OptIn annotations) {
    String value = annotations.template();
    return value == null || value.equals("true") || value.equals("false") ? null : value;
  }
}

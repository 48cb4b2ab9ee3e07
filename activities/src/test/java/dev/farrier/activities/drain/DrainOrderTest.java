package dev.farrier.activities.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.views.PodViews;
import dev.farrier.workflows.activities.DrainGroup;
import dev.farrier.workflows.activities.DrainRequest;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Karpenter v1's drain order: non-critical pods, then non-critical DaemonSet pods, then critical pods, then critical
 * DaemonSet pods, each group only once the ones before it are gone (held and terminating pods included); a forced pass
 * takes every group at once; pods that tolerate {@code karpenter.sh/disrupted:NoSchedule} belong to no group.
 */
class DrainOrderTest {
  private static final DrainRequest VOLUNTARY = new DrainRequest("c", "node-a", "nc", false, true);
  private static final DrainRequest FORCED = new DrainRequest("c", "node-a", "nc", true, true);
  private static final DrainRequest INSTANCE_GONE = new DrainRequest("c", "node-a", "nc", false, true, true);

  private static final Pod WEB = pod("web", "ReplicaSet", null);
  private static final Pod JOB = pod("job", "Job", null);
  private static final Pod LOGGER = pod("logger", "DaemonSet", null);
  private static final Pod DNS = pod("dns", "ReplicaSet", "system-cluster-critical");
  private static final Pod METRICS = pod("metrics", "ReplicaSet", "system-node-critical");
  private static final Pod PROXY = pod("proxy", "DaemonSet", "system-node-critical");
  private static final Pod IMPORTANT = pod("important", "ReplicaSet", "high-priority");
  private static final Pod PINNED = new PodBuilder(pod("pinned", "ReplicaSet", null)).editMetadata()
      .addToAnnotations("karpenter.sh/do-not-disrupt", "true").endMetadata().build();
  private static final Pod LEAVING = new PodBuilder(pod("leaving", "ReplicaSet", null)).editMetadata()
      .withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata().build();
  private static final Pod LONER = pod("loner", null, null);
  private static final Pod STATIC = new PodBuilder(pod("static", null, "system-node-critical")).editMetadata()
      .addToAnnotations(PodViews.MIRROR_ANNOTATION, "x").endMetadata().build();
  private static final Pod DONE = new PodBuilder(pod("done", "Job", null)).editStatus().withPhase("Succeeded").endStatus().build();
  private static final Pod TOLERANT = tolerating(pod("tolerant", "ReplicaSet", null), "karpenter.sh/disrupted", "Exists", null, "NoSchedule");
  private static final Pod TOLERANT_EQUAL = tolerating(pod("tolerant-equal", "ReplicaSet", null), "karpenter.sh/disrupted", "Equal", "", "NoSchedule");
  private static final Pod AGENT = tolerating(pod("agent", "DaemonSet", "system-node-critical"), null, "Exists", null, null);
  private static final Pod OTHER_EFFECT = tolerating(pod("other-effect", "ReplicaSet", null), "karpenter.sh/disrupted", "Exists", null, "NoExecute");
  private static final Pod OTHER_VALUE = tolerating(pod("other-value", "ReplicaSet", null), "karpenter.sh/disrupted", "Equal", "x", "NoSchedule");

  static Stream<Arguments> passes() {
    return Stream.of(
        row("only non-critical pods: all of them now", VOLUNTARY, List.of(WEB, JOB), DrainGroup.NON_CRITICAL, List.of(WEB, JOB), List.of()),
        row("non-critical pods before DaemonSet pods", VOLUNTARY, List.of(LOGGER, WEB), DrainGroup.NON_CRITICAL, List.of(WEB), List.of(LOGGER)),
        row("non-critical DaemonSet pods once the others are gone, before critical pods", VOLUNTARY, List.of(DNS, LOGGER),
            DrainGroup.NON_CRITICAL_DAEMONSET, List.of(LOGGER), List.of(DNS)),
        row("critical pods once every non-critical one is gone, before critical DaemonSet pods", VOLUNTARY, List.of(PROXY, DNS, METRICS),
            DrainGroup.CRITICAL, List.of(DNS, METRICS), List.of(PROXY)),
        row("critical DaemonSet pods last", VOLUNTARY, List.of(PROXY), DrainGroup.CRITICAL_DAEMONSET, List.of(PROXY), List.of()),
        row("every group waits for the first: later groups in their order", VOLUNTARY, List.of(PROXY, DNS, LOGGER, WEB),
            DrainGroup.NON_CRITICAL, List.of(WEB), List.of(LOGGER, DNS, PROXY)),
        row("a do-not-disrupt pod holds its group and the later ones", VOLUNTARY, List.of(PINNED, DNS),
            DrainGroup.NON_CRITICAL, List.of(PINNED), List.of(DNS)),
        row("a pod without a controller holds its group and the later ones", VOLUNTARY, List.of(LONER, LOGGER),
            DrainGroup.NON_CRITICAL, List.of(LONER), List.of(LOGGER)),
        row("a terminating pod holds its group until it is gone", VOLUNTARY, List.of(LEAVING, DNS),
            DrainGroup.NON_CRITICAL, List.of(LEAVING), List.of(DNS)),
        row("critical means the two system priority classes, not any high priority", VOLUNTARY, List.of(DNS, IMPORTANT),
            DrainGroup.NON_CRITICAL, List.of(IMPORTANT), List.of(DNS)),
        row("a pod that tolerates karpenter.sh/disrupted:NoSchedule belongs to no group", VOLUNTARY, List.of(TOLERANT, TOLERANT_EQUAL, DNS),
            DrainGroup.CRITICAL, List.of(DNS), List.of()),
        row("tolerating every taint tolerates the disrupted one", VOLUNTARY, List.of(AGENT, LOGGER),
            DrainGroup.NON_CRITICAL_DAEMONSET, List.of(LOGGER), List.of()),
        row("a toleration of another effect or value does not", VOLUNTARY, List.of(DNS, OTHER_EFFECT, OTHER_VALUE),
            DrainGroup.NON_CRITICAL, List.of(OTHER_EFFECT, OTHER_VALUE), List.of(DNS)),
        row("mirror and finished pods belong to no group", VOLUNTARY, List.of(STATIC, DONE, PROXY),
            DrainGroup.CRITICAL_DAEMONSET, List.of(PROXY), List.of()),
        row("nothing left to drain", VOLUNTARY, List.of(STATIC, DONE, TOLERANT), null, List.of(), List.of()),
        row("a forced pass takes every group at once, never a tolerating, mirror or finished pod", FORCED,
            List.of(PROXY, DNS, LOGGER, PINNED, TOLERANT, STATIC, DONE), DrainGroup.NON_CRITICAL, List.of(PINNED, LOGGER, DNS, PROXY), List.of()),
        row("a gone instance releases every group at once; DaemonSet pods go with the Node", INSTANCE_GONE,
            List.of(PROXY, DNS, LOGGER, WEB), DrainGroup.NON_CRITICAL, List.of(WEB, DNS), List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("passes")
  void ordersAPass(String name, DrainRequest request, List<Pod> onNode, DrainGroup group, List<String> now, List<String> deferred) {
    DrainOrder.Pass pass = DrainOrder.pass(onNode, request);

    assertEquals(group, pass.group());
    assertEquals(now, names(pass.now()));
    assertEquals(deferred, names(pass.deferred()));
  }

  @Test
  void groupsByPriorityClassNameAndDaemonSetController() {
    assertEquals(DrainGroup.NON_CRITICAL, DrainOrder.groupOf(WEB));
    assertEquals(DrainGroup.NON_CRITICAL, DrainOrder.groupOf(LONER));
    assertEquals(DrainGroup.NON_CRITICAL_DAEMONSET, DrainOrder.groupOf(LOGGER));
    assertEquals(DrainGroup.CRITICAL, DrainOrder.groupOf(DNS));
    assertEquals(DrainGroup.CRITICAL, DrainOrder.groupOf(METRICS));
    assertEquals(DrainGroup.CRITICAL_DAEMONSET, DrainOrder.groupOf(PROXY));
    Pod ownedNotControlled = new PodBuilder(pod("adopted", null, null)).editMetadata().addNewOwnerReference()
        .withKind("DaemonSet").withName("ds").withController(false).endOwnerReference().endMetadata().build();
    assertEquals(DrainGroup.NON_CRITICAL, DrainOrder.groupOf(ownedNotControlled), "only a controlling DaemonSet counts");
  }

  private static Arguments row(String name, DrainRequest request, List<Pod> onNode, DrainGroup group, List<Pod> now,
      List<Pod> deferred) {
    return Arguments.of(name, request, onNode, group, names(now), names(deferred));
  }

  private static List<String> names(List<Pod> pods) {
    return pods.stream().map(p -> p.getMetadata().getName()).toList();
  }

  private static Pod tolerating(Pod pod, String key, String operator, String value, String effect) {
    return new PodBuilder(pod).editSpec().addToTolerations(new Toleration(effect, key, operator, null, value)).endSpec().build();
  }

  private static Pod pod(String name, String controllerKind, String priorityClassName) {
    var builder = new PodBuilder().withNewMetadata().withNamespace("ns").withName(name).withUid(name + "-uid").endMetadata()
        .withNewSpec().withNodeName("node-a").withPriorityClassName(priorityClassName).endSpec()
        .withNewStatus().withPhase("Running").endStatus();
    if (controllerKind != null) {
      builder.editMetadata().addNewOwnerReference().withKind(controllerKind).withName("owner").withController(true)
          .endOwnerReference().endMetadata();
    }
    return builder.build();
  }
}

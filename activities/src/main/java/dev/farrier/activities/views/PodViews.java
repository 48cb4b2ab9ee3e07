package dev.farrier.activities.views;

import dev.farrier.model.PodRef;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.Toleration;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.HostPort;
import dev.farrier.planner.PodSpecView;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Reads what the planners need from Pod objects and pod templates. */
public final class PodViews {
  /** The annotation the kubelet puts on a static pod's mirror: the pod belongs to its node, not to a controller. */
  public static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";

  private PodViews() {}

  /** A pod with namespace selectors of its affinity terms read as its own namespace and no volume requirements. */
  public static PodSpecView of(Pod pod) {
    return of(pod, NamespaceSelectors.OWN_NAMESPACE, List.of());
  }

  /**
   * A pod for the scheduler: namespace selectors resolved, volume requirements given by the caller (CSI volumes are
   * added by the caller that reads them: {@link PodSpecView#withCsiVolumes}).
   */
  public static PodSpecView of(Pod pod, NamespaceSelectors namespaces, List<Requirement> volumeRequirements) {
    return of(pod.getMetadata(), pod.getSpec(), ownerKind(pod), namespaces, volumeRequirements);
  }

  public static PodSpecView of(ObjectMeta meta, PodSpec spec, String ownerKind) {
    return of(meta, spec, ownerKind, NamespaceSelectors.OWN_NAMESPACE, List.of());
  }

  private static PodSpecView of(ObjectMeta meta, PodSpec spec, String ownerKind, NamespaceSelectors namespaces,
      List<Requirement> volumeRequirements) {
    var annotations = meta.getAnnotations() == null ? Map.<String, String>of() : meta.getAnnotations();
    var labels = meta.getLabels() == null ? Map.<String, String>of() : meta.getLabels();
    return new PodSpecView(
        new PodRef(meta.getNamespace(), meta.getName(), meta.getUid()),
        requests(spec),
        spec.getNodeSelector(),
        requiredAffinity(spec),
        tolerations(spec),
        ownerKind,
        "true".equals(annotations.get(WellKnown.DO_NOT_DISRUPT_ANNOTATION)),
        labels,
        PodTopologyViews.preferredNodeAffinity(spec),
        PodTopologyViews.topologySpread(spec, labels),
        PodTopologyViews.podAffinity(spec, meta.getNamespace(), namespaces),
        volumeRequirements,
        hostPorts(spec),
        List.of());
  }

  /**
   * The host ports of its containers, as the kube-scheduler's NodePorts filter collects them (init containers hold
   * none).
   */
  static List<HostPort> hostPorts(PodSpec spec) {
    List<HostPort> ports = new ArrayList<>();
    for (Container c : spec.getContainers() == null ? List.<Container>of() : spec.getContainers()) {
      for (ContainerPort p : c.getPorts() == null ? List.<ContainerPort>of() : c.getPorts()) {
        if (p.getHostPort() != null && p.getHostPort() > 0) {
          ports.add(new HostPort(p.getHostIP(), p.getProtocol(), p.getHostPort()));
        }
      }
    }
    return ports;
  }

  /**
   * The pod's effective requests as the kube-scheduler counts them: sidecars (init containers with
   * {@code restartPolicy: Always}) run beside the containers, so they add to the containers' sum and to every init
   * container that starts after them; the result is the larger of that sum and the largest init container's moment,
   * plus the pod's overhead.
   */
  public static Resources requests(PodSpec spec) {
    return effective(spec, ResourceRequirements::getRequests);
  }

  /** The pod's effective limits, summed as {@link #requests} sums requests (what Karpenter's node limit metrics add up). */
  public static Resources limits(PodSpec spec) {
    return effective(spec, ResourceRequirements::getLimits);
  }

  private static Resources effective(PodSpec spec, Function<ResourceRequirements, Map<String, Quantity>> amounts) {
    Resources containers = Resources.ZERO;
    for (Container c : spec.getContainers()) {
      containers = containers.plus(container(c, amounts));
    }
    Resources sidecars = Resources.ZERO;
    Resources init = Resources.ZERO;
    for (Container c : spec.getInitContainers() == null ? List.<Container>of() : spec.getInitContainers()) {
      if ("Always".equals(c.getRestartPolicy())) {
        sidecars = sidecars.plus(container(c, amounts));
        init = max(init, sidecars);
      } else {
        init = max(init, sidecars.plus(container(c, amounts)));
      }
    }
    return max(containers.plus(sidecars), init).plus(ResourceQuantities.fromQuantities(spec.getOverhead()));
  }

  private static Resources container(Container c, Function<ResourceRequirements, Map<String, Quantity>> amounts) {
    return c.getResources() == null ? Resources.ZERO : ResourceQuantities.fromQuantities(amounts.apply(c.getResources()));
  }

  private static Resources max(Resources a, Resources b) {
    var extended = new java.util.TreeMap<>(a.extended());
    b.extended().forEach((k, v) -> extended.merge(k, v, Math::max));
    return new Resources(Math.max(a.milliCpu(), b.milliCpu()), Math.max(a.memoryBytes(), b.memoryBytes()),
        Math.max(a.ephemeralStorageBytes(), b.ephemeralStorageBytes()), Math.max(a.pods(), b.pods()), extended);
  }

  private static List<List<Requirement>> requiredAffinity(PodSpec spec) {
    if (spec.getAffinity() == null || spec.getAffinity().getNodeAffinity() == null
        || spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
      return List.of();
    }
    return spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms().stream()
        .map(term -> term.getMatchExpressions() == null ? List.<Requirement>of()
            : term.getMatchExpressions().stream().map(PodViews::requirement).toList())
        .toList();
  }

  private static Requirement requirement(NodeSelectorRequirement r) {
    return new Requirement(r.getKey(), r.getOperator(), r.getValues(), null);
  }

  public static List<Toleration> tolerations(PodSpec spec) {
    return spec == null || spec.getTolerations() == null ? List.of() : spec.getTolerations().stream()
        .map(t -> new Toleration(t.getKey(), t.getOperator(), t.getValue(), t.getEffect())).toList();
  }

  /** The controller's kind, {@code Node} for a mirror pod, null for a bare pod. */
  public static String ownerKind(Pod pod) {
    var annotations = pod.getMetadata().getAnnotations();
    if (annotations != null && annotations.containsKey(MIRROR_ANNOTATION)) {
      return PodSpecView.OWNER_NODE;
    }
    var owners = pod.getMetadata().getOwnerReferences();
    return owners == null ? null : owners.stream().filter(o -> Boolean.TRUE.equals(o.getController()))
        .map(o -> o.getKind()).findFirst().orElse(null);
  }

  public static boolean terminal(Pod pod) {
    var phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }
}

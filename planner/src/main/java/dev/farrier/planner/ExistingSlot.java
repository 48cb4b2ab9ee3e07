package dev.farrier.planner;

import dev.farrier.model.PodRef;
import dev.farrier.model.Resources;
import dev.farrier.model.Taint;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A node or in-flight claim during planning: the room it has left (allocatable less the larger of its bound pods' and
 * its promised requests) and the pending pods planned onto it.
 */
final class ExistingSlot implements TopologyPlace {
  /** Taints a node carries only until it is ready; Karpenter ignores them on nodes it is still launching. */
  private static final Set<String> TRANSIENT_TAINTS = Set.of(WellKnown.UNREGISTERED_TAINT_KEY,
      "node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable", "node.cloudprovider.kubernetes.io/uninitialized");

  final ExistingNodeView node;
  final int index;
  final String host;
  final List<Taint> taints;
  Resources remaining;
  final List<PodRef> placed = new ArrayList<>();
  /** Per CSI driver, the claims of the volumes its bound pods, nominated pods and pods planned onto it attach. */
  final Map<String, Set<String>> volumes = new HashMap<>();
  /** The host ports its bound pods, the pods nominated to it (of other batches) and the pods planned onto it hold. */
  final List<HostPort> usedPorts = new ArrayList<>();

  ExistingSlot(ExistingNodeView node, int index, List<Taint> startupTaints) {
    this.node = node;
    this.index = index;
    this.host = node.labels().getOrDefault(WellKnown.HOSTNAME_LABEL, node.name());
    this.taints = node.initialized() ? node.taints() : node.taints().stream()
        .filter(t -> !TRANSIENT_TAINTS.contains(t.key()) && !startupTaints.contains(t)).toList();
    node.pods().forEach(this::holds);
    Resources bound = node.boundRequests();
    // The pods planned onto a claim are among its bound pods or still on their way: never count them twice, never
    // forget the ones on their way.
    this.remaining = node.allocatable().minus(componentMax(bound, node.promised()));
  }

  /** Takes note of the host ports and volumes of a pod bound, nominated or planned here. */
  void holds(PodSpecView pod) {
    usedPorts.addAll(pod.hostPorts());
    for (CsiVolume v : pod.csiVolumes()) {
      volumes.computeIfAbsent(v.driver(), d -> new HashSet<>()).add(v.claim());
    }
  }

  /** The first driver whose volume limit these volumes would pass here, or null (a limit reached stays reached). */
  String volumeLimitPassed(List<CsiVolume> wanted) {
    if (wanted.isEmpty() || node.volumeLimits().isEmpty()) {
      return null;
    }
    Map<String, Set<String>> after = new HashMap<>();
    for (CsiVolume v : wanted) {
      Integer limit = node.volumeLimits().get(v.driver());
      if (limit != null) {
        Set<String> claims = after.computeIfAbsent(v.driver(), d -> new HashSet<>(volumes.getOrDefault(d, Set.of())));
        claims.add(v.claim());
        if (claims.size() > limit) {
          return v.driver();
        }
      }
    }
    return null;
  }

  private static Resources componentMax(Resources a, Resources b) {
    Map<String, Long> ext = new TreeMap<>(a.extended());
    b.extended().forEach((k, v) -> ext.merge(k, v, Math::max));
    return new Resources(Math.max(a.milliCpu(), b.milliCpu()), Math.max(a.memoryBytes(), b.memoryBytes()),
        Math.max(a.ephemeralStorageBytes(), b.ephemeralStorageBytes()), Math.max(a.pods(), b.pods()), ext);
  }

  @Override
  public String domain(String key) {
    return key.equals(WellKnown.HOSTNAME_LABEL) ? host : node.labels().get(key);
  }

  @Override
  public boolean countedBy(SpreadNodeFilter filter) {
    return filter.counts(node.labels(), taints);
  }
}

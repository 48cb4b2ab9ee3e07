package dev.farrier.planner;

import dev.farrier.model.PodRef;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.Taint;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Builders for the scheduling constraints of pods and for existing nodes. */
final class SchedulingFixtures {
  private SchedulingFixtures() {}

  static PodSpecView labelled(PodSpecView p, Map<String, String> labels) {
    return new PodSpecView(p.pod(), p.requests(), p.nodeSelector(), p.requiredAffinityTerms(), p.tolerations(), p.ownerKind(),
        p.doNotDisrupt(), labels, p.preferredAffinity(), p.topologySpread(), p.podAffinity(), p.volumeRequirements());
  }

  static PodSpecView inNamespace(PodSpecView p, String namespace) {
    return new PodSpecView(new PodRef(namespace, p.pod().name(), p.pod().uid()), p.requests(), p.nodeSelector(),
        p.requiredAffinityTerms(), p.tolerations(), p.ownerKind(), p.doNotDisrupt(), p.labels(), p.preferredAffinity(),
        p.topologySpread(), p.podAffinity(), p.volumeRequirements());
  }

  static PodSpecView preferring(PodSpecView p, PreferredNodeTerm... terms) {
    List<PreferredNodeTerm> all = new ArrayList<>(p.preferredAffinity());
    all.addAll(List.of(terms));
    return new PodSpecView(p.pod(), p.requests(), p.nodeSelector(), p.requiredAffinityTerms(), p.tolerations(), p.ownerKind(),
        p.doNotDisrupt(), p.labels(), all, p.topologySpread(), p.podAffinity(), p.volumeRequirements());
  }

  static PodSpecView spread(PodSpecView p, TopologySpread... constraints) {
    List<TopologySpread> all = new ArrayList<>(p.topologySpread());
    all.addAll(List.of(constraints));
    return new PodSpecView(p.pod(), p.requests(), p.nodeSelector(), p.requiredAffinityTerms(), p.tolerations(), p.ownerKind(),
        p.doNotDisrupt(), p.labels(), p.preferredAffinity(), all, p.podAffinity(), p.volumeRequirements());
  }

  static PodSpecView affinity(PodSpecView p, PodAffinityTerm... terms) {
    List<PodAffinityTerm> all = new ArrayList<>(p.podAffinity());
    all.addAll(List.of(terms));
    return new PodSpecView(p.pod(), p.requests(), p.nodeSelector(), p.requiredAffinityTerms(), p.tolerations(), p.ownerKind(),
        p.doNotDisrupt(), p.labels(), p.preferredAffinity(), p.topologySpread(), all, p.volumeRequirements());
  }

  static PodSpecView volumes(PodSpecView p, Requirement... requirements) {
    return new PodSpecView(p.pod(), p.requests(), p.nodeSelector(), p.requiredAffinityTerms(), p.tolerations(), p.ownerKind(),
        p.doNotDisrupt(), p.labels(), p.preferredAffinity(), p.topologySpread(), p.podAffinity(), List.of(requirements));
  }

  static PodSelector app(String app) {
    return PodSelector.of(Map.of("app", app), List.of());
  }

  static TopologySpread zoneSpread(String app, int maxSkew) {
    return new TopologySpread(WellKnown.ZONE_LABEL, maxSkew, true, null, app(app));
  }

  static TopologySpread hostSpread(String app, int maxSkew) {
    return new TopologySpread(WellKnown.HOSTNAME_LABEL, maxSkew, true, null, app(app));
  }

  static PodAffinityTerm required(String key, String app, boolean anti) {
    return new PodAffinityTerm(key, app(app), Set.of(), false, anti, true, 0);
  }

  static PodAffinityTerm preferred(String key, String app, boolean anti, int weight) {
    return new PodAffinityTerm(key, app(app), Set.of(), false, anti, false, weight);
  }

  /** A ready node of {@code pool} in {@code zone} with the given allocatable and pods. */
  static ExistingNodeView node(String name, String pool, String zone, Resources allocatable, List<PodSpecView> pods) {
    Map<String, String> labels = new TreeMap<>();
    labels.put(WellKnown.HOSTNAME_LABEL, name);
    labels.put(WellKnown.ZONE_LABEL, zone);
    labels.put(WellKnown.CAPACITY_TYPE_LABEL, WellKnown.CAPACITY_ON_DEMAND);
    labels.put(WellKnown.ARCH_LABEL, "amd64");
    if (pool != null) {
      labels.put(WellKnown.NODEPOOL_LABEL, pool);
    }
    return new ExistingNodeView(name, pool, labels, List.of(), allocatable, pods, Resources.ZERO, true, true);
  }

  static ExistingNodeView withTaints(ExistingNodeView n, List<Taint> taints, boolean initialized) {
    return new ExistingNodeView(n.name(), n.nodePool(), n.labels(), taints, n.allocatable(), n.pods(), n.promised(), initialized,
        n.acceptsPods());
  }

  static ExistingNodeView withPromised(ExistingNodeView n, Resources promised) {
    return new ExistingNodeView(n.name(), n.nodePool(), n.labels(), n.taints(), n.allocatable(), n.pods(), promised,
        n.initialized(), n.acceptsPods());
  }

  static ExistingNodeView cordoned(ExistingNodeView n) {
    return new ExistingNodeView(n.name(), n.nodePool(), n.labels(), n.taints(), n.allocatable(), n.pods(), n.promised(),
        n.initialized(), false);
  }

  static ProvisioningSnapshot withNodes(ProvisioningSnapshot s, List<ExistingNodeView> nodes) {
    return new ProvisioningSnapshot(s.pendingPods(), s.nodePools(), s.instanceTypesByNodePool(), s.daemonSetPods(), nodes,
        s.kubeletByNodePool());
  }

  static ProvisioningSnapshot withKubelet(ProvisioningSnapshot s, String pool, KubeletSettings kubelet) {
    return new ProvisioningSnapshot(s.pendingPods(), s.nodePools(), s.instanceTypesByNodePool(), s.daemonSetPods(),
        s.existingNodes(), Map.of(pool, kubelet));
  }

  static Resources cpuMem(long milliCpu, long memoryGiB, long pods) {
    return Resources.of(milliCpu, memoryGiB * Fixtures.GIB, pods);
  }
}

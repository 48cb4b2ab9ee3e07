package dev.farrier.planner;

import dev.farrier.model.PodRef;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.Taint;
import dev.farrier.model.Toleration;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Small builders for planner inputs, so each test states only what it is about. */
final class Fixtures {
  private Fixtures() {}

  static final long MIB = 1L << 20;
  static final long GIB = 1L << 30;
  static final List<String> ZONES = List.of("us-east-1a", "us-east-1b", "us-east-1c");

  // ---- instance types ----

  /** A type offered on-demand and spot in every zone; spot at 40% of {@code price}. */
  static InstanceTypeView type(String name, String arch, int vcpu, long memoryGiB, long maxPods, double price) {
    List<OfferingView> offerings = new ArrayList<>();
    for (String zone : ZONES) {
      offerings.add(new OfferingView(zone, WellKnown.CAPACITY_ON_DEMAND, price, true));
      offerings.add(new OfferingView(zone, WellKnown.CAPACITY_SPOT, price * 0.4, true));
    }
    return type(name, arch, vcpu, memoryGiB, maxPods, offerings);
  }

  static InstanceTypeView type(String name, String arch, int vcpu, long memoryGiB, long maxPods, List<OfferingView> offerings) {
    return new InstanceTypeView(name, arch, InstanceTypeView.standardLabels(name, vcpu, memoryGiB * 1024),
        new Resources(vcpu * 1000L, memoryGiB * GIB, 20 * GIB, maxPods, Map.of()), offerings);
  }

  static InstanceTypeView withLabel(InstanceTypeView t, String key, String value) {
    Map<String, String> labels = new TreeMap<>(t.labels());
    labels.put(key, value);
    return new InstanceTypeView(t.name(), t.arch(), labels, t.capacity(), t.offerings());
  }

  static InstanceTypeView withExtended(InstanceTypeView t, String resource, long amount) {
    Resources c = t.capacity();
    return new InstanceTypeView(t.name(), t.arch(), t.labels(),
        new Resources(c.milliCpu(), c.memoryBytes(), c.ephemeralStorageBytes(), c.pods(), Map.of(resource, amount)),
        t.offerings());
  }

  /** A small, realistic catalogue: general purpose on both arches, compute, memory and one GPU type. */
  static List<InstanceTypeView> catalogue() {
    return List.of(
        type("m5.large", "amd64", 2, 8, 29, 0.096),
        type("m5.xlarge", "amd64", 4, 16, 58, 0.192),
        type("m5.2xlarge", "amd64", 8, 32, 58, 0.384),
        type("m6g.large", "arm64", 2, 8, 29, 0.077),
        type("m6g.xlarge", "arm64", 4, 16, 58, 0.154),
        type("c7i.xlarge", "amd64", 4, 8, 58, 0.178),
        type("r6i.xlarge", "amd64", 4, 32, 58, 0.252),
        withExtended(withLabel(type("g5.xlarge", "amd64", 4, 16, 58, 1.006),
            "karpenter.k8s.aws/instance-gpu-count", "1"), "nvidia.com/gpu", 1));
  }

  // ---- pools ----

  static NodePoolView pool(String name) {
    return pool(name, 0, List.of(), List.of());
  }

  static NodePoolView pool(String name, int weight, List<Requirement> requirements, List<Taint> taints) {
    return new NodePoolView(name, weight, requirements, Map.of(), taints, List.of(), "default", NodePoolLimits.NONE,
        Resources.ZERO, "hash-" + name, List.of(), "720h", 3600L);
  }

  static NodePoolView withLabels(NodePoolView p, Map<String, String> labels) {
    return new NodePoolView(p.name(), p.weight(), p.requirements(), labels, p.taints(), p.startupTaints(),
        p.nodeClassName(), p.limits(), p.usage(), p.hash(), p.budgets(), p.expireAfter(), p.terminationGracePeriodSeconds());
  }

  static NodePoolView withStartupTaints(NodePoolView p, List<Taint> startupTaints) {
    return new NodePoolView(p.name(), p.weight(), p.requirements(), p.labels(), p.taints(), startupTaints,
        p.nodeClassName(), p.limits(), p.usage(), p.hash(), p.budgets(), p.expireAfter(), p.terminationGracePeriodSeconds());
  }

  static NodePoolView withLimits(NodePoolView p, NodePoolLimits limits, Resources usage) {
    return new NodePoolView(p.name(), p.weight(), p.requirements(), p.labels(), p.taints(), p.startupTaints(),
        p.nodeClassName(), limits, usage, p.hash(), p.budgets(), p.expireAfter(), p.terminationGracePeriodSeconds());
  }

  static NodePoolView withBudgets(NodePoolView p, List<DisruptionBudget> budgets) {
    return new NodePoolView(p.name(), p.weight(), p.requirements(), p.labels(), p.taints(), p.startupTaints(),
        p.nodeClassName(), p.limits(), p.usage(), p.hash(), budgets, p.expireAfter(), p.terminationGracePeriodSeconds());
  }

  /** The pool owned by the fleet upgrade {@code rollout} ({@code farrier.dev/rollout}). */
  static NodePoolView ownedBy(NodePoolView p, String rollout) {
    return new NodePoolView(p.name(), p.weight(), p.requirements(), p.labels(), p.taints(), p.startupTaints(),
        p.nodeClassName(), p.limits(), p.usage(), p.hash(), p.budgets(), p.expireAfter(), p.terminationGracePeriodSeconds(),
        p.approvalRequired(), rollout);
  }

  static NodePoolView withExpireAfter(NodePoolView p, String expireAfter) {
    return new NodePoolView(p.name(), p.weight(), p.requirements(), p.labels(), p.taints(), p.startupTaints(),
        p.nodeClassName(), p.limits(), p.usage(), p.hash(), p.budgets(), expireAfter, p.terminationGracePeriodSeconds());
  }

  /** The pool with {@code farrier.dev/expiry} read as {@code mode}. */
  static NodePoolView withExpiry(NodePoolView p, ExpiryMode mode) {
    return new NodePoolView(p.name(), p.weight(), p.requirements(), p.labels(), p.taints(), p.startupTaints(),
        p.nodeClassName(), p.limits(), p.usage(), p.hash(), p.budgets(), p.expireAfter(), p.terminationGracePeriodSeconds(),
        p.approvalRequired(), p.rollout(), mode);
  }

  // ---- pods ----

  static PodSpecView pod(String name, long milliCpu, long memoryMiB) {
    return new PodSpecView(new PodRef("default", name, "uid-" + name), Resources.of(milliCpu, memoryMiB * MIB, 1),
        Map.of(), List.of(), List.of(), "ReplicaSet", false);
  }

  static PodSpecView withSelector(PodSpecView p, Map<String, String> selector) {
    return new PodSpecView(p.pod(), p.requests(), selector, p.requiredAffinityTerms(), p.tolerations(), p.ownerKind(),
        p.doNotDisrupt());
  }

  static PodSpecView withAffinity(PodSpecView p, List<List<Requirement>> terms) {
    return new PodSpecView(p.pod(), p.requests(), p.nodeSelector(), terms, p.tolerations(), p.ownerKind(), p.doNotDisrupt());
  }

  static PodSpecView withTolerations(PodSpecView p, List<Toleration> tolerations) {
    return new PodSpecView(p.pod(), p.requests(), p.nodeSelector(), p.requiredAffinityTerms(), tolerations, p.ownerKind(),
        p.doNotDisrupt());
  }

  static PodSpecView withOwner(PodSpecView p, String ownerKind) {
    return new PodSpecView(p.pod(), p.requests(), p.nodeSelector(), p.requiredAffinityTerms(), p.tolerations(), ownerKind,
        p.doNotDisrupt());
  }

  static PodSpecView withRequests(PodSpecView p, Resources requests) {
    return new PodSpecView(p.pod(), requests, p.nodeSelector(), p.requiredAffinityTerms(), p.tolerations(), p.ownerKind(),
        p.doNotDisrupt());
  }

  static Requirement req(String key, String op, String... values) {
    return new Requirement(key, op, List.of(values), null);
  }

  static Taint taint(String key, String effect) {
    return new Taint(key, "", effect);
  }

  // ---- snapshots ----

  static ProvisioningSnapshot snapshot(List<PodSpecView> pods, List<NodePoolView> pools, List<InstanceTypeView> types) {
    Map<String, List<InstanceTypeView>> byPool = new TreeMap<>();
    pools.forEach(p -> byPool.put(p.name(), types));
    return new ProvisioningSnapshot(pods, pools, byPool, List.of());
  }

  // ---- node claims ----

  static final long NOW = 1_800_000_000_000L;
  static final long HOUR = 3_600_000L;

  /** An initialized amd64 claim of {@code pool}, one hour old, on image ami-new with the pool's hash, 2 pods. */
  static NodeClaimView claim(String name, String pool) {
    return new NodeClaimView(name, pool, "default", "node-" + name, "i-" + name, "ami-new", "amd64", "hash-" + pool,
        WellKnown.CAPACITY_ON_DEMAND, "m5.large", "us-east-1a", true, true, false, false, false, false, NOW - HOUR, null,
        null, null, new PodsOnNode(3, 2, List.of()));
  }

  static NodeClaimView onImage(NodeClaimView c, String imageId) {
    return new NodeClaimView(c.name(), c.nodePool(), c.nodeClassName(), c.nodeName(), c.instanceId(), imageId, c.arch(),
        c.nodePoolHash(), c.capacityType(), c.instanceType(), c.zone(), c.registered(), c.initialized(), c.deleting(),
        c.disruptedTaint(), c.aborted(), c.doNotDisrupt(), c.createdAtMillis(), c.driftedSinceMillis(), c.expireAfter(),
        c.terminationGracePeriodSeconds(), c.pods());
  }

  static NodeClaimView withHash(NodeClaimView c, String hash) {
    return new NodeClaimView(c.name(), c.nodePool(), c.nodeClassName(), c.nodeName(), c.instanceId(), c.imageId(), c.arch(),
        hash, c.capacityType(), c.instanceType(), c.zone(), c.registered(), c.initialized(), c.deleting(),
        c.disruptedTaint(), c.aborted(), c.doNotDisrupt(), c.createdAtMillis(), c.driftedSinceMillis(), c.expireAfter(),
        c.terminationGracePeriodSeconds(), c.pods());
  }

  /** Flags: initialized, deleting, disruptedTaint, aborted, doNotDisrupt. */
  static NodeClaimView withFlags(NodeClaimView c, boolean initialized, boolean deleting, boolean disruptedTaint,
      boolean aborted, boolean doNotDisrupt) {
    return new NodeClaimView(c.name(), c.nodePool(), c.nodeClassName(), c.nodeName(), c.instanceId(), c.imageId(), c.arch(),
        c.nodePoolHash(), c.capacityType(), c.instanceType(), c.zone(), c.registered(), initialized, deleting,
        disruptedTaint, aborted, doNotDisrupt, c.createdAtMillis(), c.driftedSinceMillis(), c.expireAfter(),
        c.terminationGracePeriodSeconds(), c.pods());
  }

  static NodeClaimView withPods(NodeClaimView c, PodsOnNode pods) {
    return new NodeClaimView(c.name(), c.nodePool(), c.nodeClassName(), c.nodeName(), c.instanceId(), c.imageId(), c.arch(),
        c.nodePoolHash(), c.capacityType(), c.instanceType(), c.zone(), c.registered(), c.initialized(), c.deleting(),
        c.disruptedTaint(), c.aborted(), c.doNotDisrupt(), c.createdAtMillis(), c.driftedSinceMillis(), c.expireAfter(),
        c.terminationGracePeriodSeconds(), pods);
  }

  static NodeClaimView withTimes(NodeClaimView c, long createdAt, Long driftedSince) {
    return new NodeClaimView(c.name(), c.nodePool(), c.nodeClassName(), c.nodeName(), c.instanceId(), c.imageId(), c.arch(),
        c.nodePoolHash(), c.capacityType(), c.instanceType(), c.zone(), c.registered(), c.initialized(), c.deleting(),
        c.disruptedTaint(), c.aborted(), c.doNotDisrupt(), createdAt, driftedSince, c.expireAfter(),
        c.terminationGracePeriodSeconds(), c.pods());
  }
}

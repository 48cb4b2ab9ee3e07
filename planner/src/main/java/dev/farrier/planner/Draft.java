package dev.farrier.planner;

import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.PodRef;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.InstanceTypeOptions.Option;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** A claim being planned: it narrows and grows as pods join. */
final class Draft implements TopologyPlace {
  final PoolContext pool;
  /** Its place in the plan's claims, in the order they were opened. */
  final int index;
  /** Stands in for {@code kubernetes.io/hostname} until the node exists. */
  final String host;
  Requirements requirements;
  Resources podRequests;
  InstanceTypeOptions options;
  /** What this claim counts against the pool's limits: the largest of each resource over the types it lists. */
  Resources counted = Resources.ZERO;
  /**
   * The allocatable of the instance type chosen for its price when the claim was opened ({@link ClaimSizing}): the
   * claim takes no pod that would not fit in it; null when nothing limits it.
   */
  Resources cap;
  private long maxCpu;
  private long maxMemory;
  private long maxPods;
  private long roomCpu = Long.MAX_VALUE;
  private long roomMemory = Long.MAX_VALUE;
  private long roomPods = Long.MAX_VALUE;
  final List<PodRef> pods = new ArrayList<>();
  final List<PodShape> members = new ArrayList<>();
  /** The host ports its pool's DaemonSets and the pods planned onto it hold. */
  final List<HostPort> usedPorts = new ArrayList<>();

  Draft(PoolContext pool, int index, Requirements requirements) {
    this.pool = pool;
    this.index = index;
    this.host = "planned-claim-" + index;
    this.requirements = requirements;
    this.podRequests = Resources.ZERO;
    this.usedPorts.addAll(pool.daemonPorts);
  }

  /** The claim's value for a topology key when it is pinned to one, else null. */
  @Override
  public String domain(String key) {
    if (key.equals(WellKnown.HOSTNAME_LABEL)) {
      return host;
    }
    Set<String> in = requirements.get(key).in();
    return in != null && in.size() == 1 ? in.iterator().next() : null;
  }

  @Override
  public boolean countedBy(SpreadNodeFilter filter) {
    return filter.countsClaim(requirements, pool.pool.taints());
  }

  /**
   * Cheaper still, without building the new total: room for one more pod of {@code requests} in cpu, memory and pods
   * under the largest listed type and the cap. Called for every claim of the batch for every pod.
   */
  boolean hasRoomFor(Resources requests) {
    return requests.milliCpu() <= roomCpu && requests.memoryBytes() <= roomMemory && requests.pods() <= roomPods;
  }

  /** The CPU, memory and pod slots {@link #hasRoomFor} allows one more pod, for the scheduler's {@link RoomIndex}. */
  long roomCpu() {
    return roomCpu;
  }

  long roomMemory() {
    return roomMemory;
  }

  long roomPods() {
    return roomPods;
  }

  /** A cheap necessary condition: some listed type is at least this big in cpu, memory and pods, within the cap. */
  boolean mightFit(Resources total) {
    return total.milliCpu() <= maxCpu && total.memoryBytes() <= maxMemory && total.pods() <= maxPods
        && (cap == null || total.fitsIn(cap));
  }

  void update(Requirements requirements, InstanceTypeOptions options, Resources podRequests) {
    this.requirements = requirements;
    this.options = options;
    this.podRequests = podRequests;
    long cpu = 0;
    long memory = 0;
    long podCount = 0;
    for (Option o : options.ranked()) {
      Resources a = o.facts().allocatable();
      cpu = Math.max(cpu, a.milliCpu());
      memory = Math.max(memory, a.memoryBytes());
      podCount = Math.max(podCount, a.pods());
    }
    maxCpu = cpu;
    maxMemory = memory;
    maxPods = podCount;
    Resources total = podRequests.plus(pool.daemonOverhead);
    roomCpu = Math.min(maxCpu, cap == null ? Long.MAX_VALUE : cap.milliCpu()) - total.milliCpu();
    roomMemory = Math.min(maxMemory, cap == null ? Long.MAX_VALUE : cap.memoryBytes()) - total.memoryBytes();
    roomPods = Math.min(maxPods, cap == null ? Long.MAX_VALUE : cap.pods()) - total.pods();
    if (pool.limited()) {
      Resources max = Resources.ZERO;
      for (Option o : options.top()) {
        max = componentMax(max, o.type().capacity());
      }
      counted = max;
    }
  }

  private static Resources componentMax(Resources a, Resources b) {
    Map<String, Long> ext = new TreeMap<>(a.extended());
    b.extended().forEach((k, v) -> ext.merge(k, v, Math::max));
    return new Resources(Math.max(a.milliCpu(), b.milliCpu()), Math.max(a.memoryBytes(), b.memoryBytes()),
        Math.max(a.ephemeralStorageBytes(), b.ephemeralStorageBytes()), Math.max(a.pods(), b.pods()), ext);
  }

  NodeClaimRequest toRequest(String name) {
    NodePoolView np = pool.pool;
    List<Option> top = options.top();
    List<String> typeNames = top.stream().map(o -> o.type().name()).toList();
    Set<String> zones = new TreeSet<>();
    Set<String> capacityTypes = new TreeSet<>();
    Set<String> arches = new TreeSet<>();
    for (Option o : top) {
      zones.addAll(o.zones());
      capacityTypes.addAll(o.capacityTypes());
      arches.add(o.type().arch());
    }
    Map<String, List<String>> narrowedTo = Map.of(
        WellKnown.INSTANCE_TYPE_LABEL, typeNames,
        WellKnown.ZONE_LABEL, List.copyOf(zones),
        WellKnown.CAPACITY_TYPE_LABEL, List.copyOf(capacityTypes),
        WellKnown.ARCH_LABEL, List.copyOf(arches));
    List<Requirement> reqs = new ArrayList<>();
    Set<String> keys = new TreeSet<>(requirements.constraints().keySet());
    keys.addAll(narrowedTo.keySet());
    for (String key : keys) {
      if (narrowedTo.containsKey(key)) {
        reqs.add(new Requirement(key, "In", narrowedTo.get(key), requirements.get(key).minValues()));
      } else {
        reqs.addAll(requirements.get(key).toRequirements(key));
      }
    }
    Map<String, String> labels = new TreeMap<>(np.labels());
    labels.put(WellKnown.NODEPOOL_LABEL, np.name());
    requirements.constraints().forEach((key, c) -> {
      if (c.mustExist() && !Requirements.isWellKnown(key) && !labels.containsKey(key)) {
        labels.put(key, c.someValue());
      }
    });
    return new NodeClaimRequest(name, np.name(), np.nodeClassName(), typeNames, reqs,
        podRequests.plus(pool.daemonOverhead), labels, np.taints(), np.startupTaints(), np.hash(), np.expireAfter(),
        np.terminationGracePeriodSeconds(), pods);
  }
}

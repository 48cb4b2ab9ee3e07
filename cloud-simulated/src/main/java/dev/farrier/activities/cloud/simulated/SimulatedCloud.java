package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.Ownership;
import dev.farrier.activities.cloud.CapacityReservation;
import dev.farrier.activities.cloud.CapacityReservationTerm;
import dev.farrier.activities.cloud.AmiSelectorTerm;
import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.CloudProviderException.Kind;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.InstanceProfileNames;
import dev.farrier.activities.cloud.InstanceProfileRequest;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.LaunchRequest;
import dev.farrier.activities.cloud.NodeClassLaunch;
import dev.farrier.activities.cloud.Offering;
import dev.farrier.activities.cloud.RoleNotFoundException;
import dev.farrier.activities.cloud.SecurityGroup;
import dev.farrier.activities.cloud.SecurityGroupTerm;
import dev.farrier.activities.cloud.Subnet;
import dev.farrier.activities.cloud.SubnetTerm;
import dev.farrier.activities.cloud.aws.EphemeralStorage;
import dev.farrier.activities.cloud.ZonalSubnets;
import dev.farrier.activities.cloud.simulated.CloudCall.Operation;
import dev.farrier.activities.cloud.simulated.StateStore.Change;
import dev.farrier.activities.crd.ResolvedSubnet;
import dev.farrier.catalog.InstanceTypeCatalog;
import dev.farrier.model.Taint;
import dev.farrier.model.WellKnown;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The simulated EC2: real instance types and on-demand prices ({@link InstanceTypeCatalog}), made-up EKS AMIs
 * ({@link AmiCatalog}), instances kept in a JSON file in {@link SimulatedCloudConfig#stateDir()} so a worker killed
 * with -9, a new worker, and the test watching them all see one cloud. Instance states follow the clock: pending for
 * {@code bootDelay} after launch, then running; shutting-down for {@code terminateDelay} after terminate, then
 * terminated (and still visible for {@link #TERMINATED_VISIBILITY}, as on EC2). Every mutating call is appended to
 * the {@link CloudCallLog}.
 *
 * <p>Subnets and security groups are the cluster's {@link SimulatedNetwork} (with the subnets {@link #addSubnet}
 * added); a launch takes, in each zone, the node class's subnet with the most free addresses, and an instance holds
 * one address until it is terminated. Instance profiles live in the state file beside the instances.
 *
 * <p>Test hooks: {@link #setOfferingAvailable} (capacity errors, found only by a launch, as on EC2), {@link #registerForeignInstance} (an instance
 * Farrier must never terminate), {@link #registerInstanceProfile} (a user's own instance profile),
 * {@link #interruptSpot} (EC2 reclaims a spot instance two minutes after its warning).
 *
 * <p>Longer than 400 lines on purpose: it is the whole {@link CloudProvider} seam plus the test hooks over one state
 * file, each call one short transaction on it; the catalogue, AMIs, network, state store and call log are classes of
 * their own.
 */
public final class SimulatedCloud implements CloudProvider {
  /** How long EC2 keeps reporting a terminated instance. */
  public static final Duration TERMINATED_VISIBILITY = Duration.ofHours(1);
  private static final Logger log = LoggerFactory.getLogger(SimulatedCloud.class);

  private final SimulatedCloudConfig config;
  private final InstanceTypeCatalog catalog;
  private final AmiCatalog amis;
  private final StateStore store;
  private final SimulatedNetwork network;

  public SimulatedCloud(SimulatedCloudConfig config) {
    this.config = config;
    this.catalog = InstanceTypeCatalog.load(config.region());
    this.amis = AmiCatalog.load(config.clusterKubernetesVersion());
    this.store = new StateStore(config.stateDir());
    this.network = new SimulatedNetwork(config.cluster(), config.region(), catalog.zones());
  }

  public SimulatedCloudConfig config() {
    return config;
  }

  public InstanceTypeCatalog catalog() {
    return catalog;
  }

  public AmiCatalog amis() {
    return amis;
  }

  /** The cluster's VPC: one subnet per zone and a node security group, tagged for discovery. */
  public SimulatedNetwork network() {
    return network;
  }

  /** The log of every mutating call on this cloud (shared by every SimulatedCloud on the same state directory). */
  public CloudCallLog calls() {
    return store.calls();
  }

  /** An SSM parameter, as {@code aws ssm get-parameter --name ...} would return it; see {@link AmiCatalog}. */
  public Optional<String> ssmParameter(String name) {
    return amis.ssmParameter(name);
  }

  /**
   * Idempotent by the NodeClaim: an instance tagged {@code karpenter.sh/nodeclaim=<claim>} in the same cluster that
   * is not terminated is returned as it is (and logged as {@link Operation#CREATE_EXISTING}), so a retry after a
   * lost response never launches a second instance. The lookup and the launch happen under the state lock.
   *
   * <p>Capacity as EC2 Fleet reports it: the offerings are tried in {@link OfferingSelection}'s order, skipping
   * those marked unavailable; one exhausted by {@link #setOfferingAvailable} is marked unavailable for
   * {@link #UNAVAILABLE_FOR} (logged as {@link Operation#MARK_UNAVAILABLE}) and the next one tried. When none is
   * left, {@link Kind#INSUFFICIENT_CAPACITY} is thrown, the marks kept.
   */
  @Override
  public Instance create(LaunchRequest request) {
    playFaults(RUN_INSTANCES);
    return store.mutate(state -> {
      Instant now = config.clock().instant();
      Optional<CloudProviderException> invalid = invalid(request);
      if (invalid.isPresent()) {
        return Change.fail(call(now, Operation.CREATE_FAILED, "", String.valueOf(request.nodeClaim()), invalid.get().getMessage()), invalid.get());
      }
      Optional<StoredInstance> existing = state.instances().stream()
          .filter(i -> request.nodeClaim().equals(i.tags().get(WellKnown.TAG_NODECLAIM)))
          .filter(i -> request.cluster().equals(i.tags().get(WellKnown.TAG_CLUSTER)))
          .filter(i -> !StoredInstance.TERMINATED.equals(stateOf(i, now)))
          .findFirst();
      if (existing.isPresent()) {
        StoredInstance i = existing.get();
        log.atInfo().setMessage("simulated launch found the claim's instance").addKeyValue("nodeclaim", request.nodeClaim())
            .addKeyValue("instance", i.id()).log();
        return Change.unchanged(toInstance(i, now), call(now, Operation.CREATE_EXISTING, i.id(), request.nodeClaim(), describe(i)));
      }
      List<OfferingSelection> candidates;
      try {
        candidates = OfferingSelection.candidates(catalog, request, state.unavailableAt(now));
      } catch (CloudProviderException e) {
        return Change.fail(call(now, Operation.CREATE_FAILED, "", request.nodeClaim(), e.kind() + ": " + e.getMessage()), e);
      }
      // As an instant fleet walks its overrides: an exhausted offering is marked and the next one tried.
      Set<OfferingKey> exhausted = new HashSet<>(state.exhaustedOfferings());
      Map<String, ResolvedSubnet> subnetByZone = ZonalSubnets.choose(request.launch().subnets(), freeAddresses(state, now));
      CloudState marked = state;
      List<CloudCall> calls = new ArrayList<>();
      Optional<OfferingSelection> chosen = Optional.empty();
      Set<String> zonesWithoutAddresses = new java.util.TreeSet<>();
      Optional<ReservedSelection> reserved = reservedSelection(state, request, subnetByZone, now);
      if (reserved.isPresent()) {
        chosen = Optional.of(reserved.get().selection());
        candidates = List.of();
      }
      for (OfferingSelection candidate : candidates) {
        String zone = candidate.offering().zone();
        if (!request.launch().subnets().isEmpty() && !subnetByZone.containsKey(zone)) {
          // As a fleet whose overrides name no subnet in the zone: its subnets have no free address left.
          zonesWithoutAddresses.add(zone);
          continue;
        }
        if (!exhausted.contains(candidate.key())) {
          chosen = Optional.of(candidate);
          break;
        }
        Instant until = now.plus(UNAVAILABLE_FOR);
        marked = marked.withUnavailableUntil(candidate.key(), until, NO_CAPACITY_REASON, now);
        calls.add(unavailableCall(now, candidate.key(), until, NO_CAPACITY_REASON, request.nodeClaim()));
      }
      if (chosen.isEmpty()) {
        CloudProviderException noCapacity = new CloudProviderException(Kind.INSUFFICIENT_CAPACITY, "no capacity for "
            + request.instanceTypes() + " in zones " + (request.allowedZones().isEmpty() ? "any" : request.allowedZones())
            + " as " + request.capacityTypes() + " (" + calls.size() + " offerings found exhausted now, any others already marked unavailable"
            + (zonesWithoutAddresses.isEmpty() ? "" : "; no free IP address in the subnets of " + zonesWithoutAddresses) + ")");
        calls.add(call(now, Operation.CREATE_FAILED, "", request.nodeClaim(), noCapacity.kind() + ": " + noCapacity.getMessage()));
        return Change.failAfter(marked == state ? null : marked, calls, noCapacity);
      }
      OfferingSelection selection = chosen.get();
      long sequence = marked.launches() + 1;
      String ip = PrivateAddresses.ip(marked.network(), sequence, selection.offering().zone(), catalog.zones());
      Map<String, String> tags = new HashMap<>(request.tags());
      tags.putAll(Ownership.launchTags(request.cluster(), request.nodePool(), request.nodeClaim()));
      Map<String, String> labels = new HashMap<>(request.nodeLabels());
      labels.put(WellKnown.CAPACITY_TYPE_LABEL, selection.offering().capacityType());
      List<Taint> taints = new ArrayList<>(request.nodeTaints());
      if (taints.stream().noneMatch(t -> WellKnown.UNREGISTERED_TAINT_KEY.equals(t.key()))) {
        taints.add(WellKnown.UNREGISTERED_TAINT);
      }
      StoredInstance launched = new StoredInstance(
          instanceId("launch/" + sequence + "/" + request.cluster() + "/" + request.nodeClaim()),
          selection.type().name(),
          selection.offering().zone(),
          selection.offering().capacityType(),
          selection.image().id(),
          ip,
          PrivateAddresses.dnsName(ip, config.region()),
          selection.offering().pricePerHour(),
          tags,
          labels,
          taints,
          now,
          null,
          false,
          null,
          Optional.ofNullable(subnetByZone.get(selection.offering().zone())).map(ResolvedSubnet::id).orElse(null),
          request.launch().securityGroupIds(),
          request.launch().instanceStorePolicy(),
          reserved.map(r -> r.reservation().id()).orElse(null));
      log.atInfo().setMessage("simulated launch").addKeyValue("nodeclaim", request.nodeClaim())
          .addKeyValue("instance", launched.id()).addKeyValue("instanceType", launched.instanceType())
          .addKeyValue("zone", launched.zone()).addKeyValue("capacityType", launched.capacityType()).log();
      calls.add(call(now, Operation.CREATE, launched.id(), request.nodeClaim(), describe(launched) + launchSettings(request.launch())));
      return Change.of(pruned(marked.withLaunched(launched), now), toInstance(launched, now), calls);
    });
  }

  /** A launch into a capacity reservation: the offering it takes (capacity type reserved) and the reservation. */
  private record ReservedSelection(OfferingSelection selection, StoredReservation reservation) {}

  /**
   * The first reservation the launch may use ({@link LaunchRequest#usableReservations}) that exists here, has not
   * ended, is not expiring, has room left and a subnet with a free address in its zone, with the image of its type's
   * architecture; empty when none (the launch then tries spot and on-demand as its capacity types allow).
   */
  private Optional<ReservedSelection> reservedSelection(CloudState state, LaunchRequest request, Map<String, ResolvedSubnet> subnetByZone,
      Instant now) {
    for (CapacityReservation wanted : request.usableReservations()) {
      Optional<StoredReservation> stored = state.reservations().stream().filter(r -> r.id().equals(wanted.id())).findFirst();
      if (stored.isEmpty() || stored.get().ended(now)) {
        continue;
      }
      CapacityReservation now_ = stored.get().at(now, used(state, stored.get().id(), now));
      Optional<InstanceType> type = catalog.find(now_.instanceType());
      Optional<Image> image = type.flatMap(t -> request.images().stream().filter(i -> t.arch().equals(i.arch()))
          .max(java.util.Comparator.comparing(Image::creationDate, java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()))));
      boolean subnet = request.launch().subnets().isEmpty() || subnetByZone.containsKey(now_.zone());
      if (now_.launchable() && image.isPresent() && subnet) {
        double onDemand = type.get().offerings().stream().filter(o -> o.capacityType().equals(WellKnown.CAPACITY_ON_DEMAND))
            .mapToDouble(Offering::pricePerHour).min().orElse(0);
        Offering offering = new Offering(now_.zone(), WellKnown.CAPACITY_RESERVED, onDemand / RESERVED_PRICE_DIVISOR, true);
        return Optional.of(new ReservedSelection(new OfferingSelection(type.get(), offering, image.get()), stored.get()));
      }
    }
    return Optional.empty();
  }

  /** What a reserved instance costs: its reservation is paid for whether used or not (Karpenter's divisor). */
  static final double RESERVED_PRICE_DIVISOR = 10_000_000.0;

  /** Instances launched into {@code reservation} that are not terminated: what it has given out. */
  private int used(CloudState state, String reservation, Instant now) {
    return (int) state.instances().stream().filter(i -> reservation.equals(i.capacityReservationId()))
        .filter(i -> !StoredInstance.TERMINATED.equals(stateOf(i, now))).count();
  }

  /**
   * The reservations the terms select (as {@link CloudProvider#resolveCapacityReservations} says: ended ones left
   * out), each with the instances it can still take now.
   */
  @Override
  public List<CapacityReservation> resolveCapacityReservations(List<CapacityReservationTerm> terms) {
    playFaults(DESCRIBE_CAPACITY_RESERVATIONS);
    CloudState state = store.read();
    Instant now = config.clock().instant();
    return state.reservations().stream().filter(r -> !r.ended(now))
        .map(r -> java.util.Map.entry(r, r.at(now, used(state, r.id(), now))))
        .filter(e -> terms.stream().anyMatch(t -> t.selects(e.getValue(), e.getKey().tags())))
        .map(java.util.Map.Entry::getValue)
        .sorted(java.util.Comparator.comparing(CapacityReservation::id)).toList();
  }

  /**
   * Test and sandbox hook: a capacity reservation of {@code count} instances of {@code instanceType} in {@code zone}
   * (as {@code aws ec2 create-capacity-reservation}; a Capacity Block is bought, not created, but is the same record
   * here), owned by this account ({@link #OWNER_ID}), targeted. Persisted; its id derives from the ones made before.
   *
   * @param reservationType {@code default} or {@code capacity-block}
   * @param endTime         when it ends; null for a reservation without end
   */
  public CapacityReservation createCapacityReservation(String instanceType, String zone, int count, String reservationType,
      Instant endTime, Map<String, String> tags) {
    if (catalog.find(instanceType).isEmpty() || !catalog.zones().contains(zone) || count < 1) {
      throw new CloudProviderException(Kind.INVALID_REQUEST, "cannot reserve " + count + " " + instanceType + " in " + zone);
    }
    return store.mutate(state -> {
      Instant now = config.clock().instant();
      String id = "cr-" + instanceId("reservation/" + (state.reservations().size() + 1) + "/" + config.cluster()).substring(2);
      StoredReservation reservation = new StoredReservation(id, instanceType, zone, OWNER_ID, "targeted", reservationType, false, count,
          endTime, tags);
      log.atInfo().setMessage("simulated capacity reservation").addKeyValue("reservation", id).addKeyValue("instanceType", instanceType)
          .addKeyValue("zone", zone).addKeyValue("count", count).addKeyValue("type", reservationType).log();
      return Change.of(state.withReservation(reservation), reservation.at(now, 0),
          call(now, Operation.CREATE_CAPACITY_RESERVATION, "", "", id + " " + count + " x " + instanceType + " " + zone + " "
              + reservationType + (endTime == null ? "" : " until " + endTime)));
    });
  }

  /** The account that owns the simulated cloud's reservations (the account id EventBridge events carry). */
  public static final String OWNER_ID = "123456789012";

  /** A Capacity Block reaching its end: the instances EC2 takes back with it, and when. */
  public record CapacityBlockEnd(CapacityReservation reservation, List<Instance> instances, Instant warnedAt, Instant reclaimAt) {}

  /**
   * Sandbox and test hook: Capacity Block {@code reservationId} is about to end. Its end moves to
   * {@code now + notice + 30 min} (so it is {@code expiring} from now on, and EC2 reclaims its instances 30 minutes
   * before the end), and each of its running instances is reclaimed {@code notice} from now, as a spot interruption
   * is. The warning is posted by {@link SimulatedInterruptions#expireCapacityBlock}. Refuses a reservation that is
   * unknown or not a Capacity Block.
   */
  public CapacityBlockEnd expireCapacityBlock(String reservationId, Duration notice) {
    return store.mutate(state -> {
      Instant now = config.clock().instant();
      Optional<StoredReservation> found = state.reservations().stream().filter(r -> r.id().equals(reservationId)).findFirst();
      if (found.isEmpty() || !CapacityReservation.CAPACITY_BLOCK.equals(found.get().reservationType())) {
        String problem = found.isEmpty() ? "is unknown" : "is not a capacity block";
        return Change.fail(call(now, Operation.CAPACITY_BLOCK_END, "", "", reservationId + " refused: " + problem),
            new CloudProviderException(Kind.INVALID_REQUEST, "cannot end capacity reservation " + reservationId + ": it " + problem));
      }
      Instant reclaimAt = now.plus(notice);
      StoredReservation ending = found.get().endingAt(reclaimAt.plus(CAPACITY_BLOCK_RECLAIM_LEAD));
      CloudState next = state.withReservation(ending);
      List<Instance> reclaimed = new ArrayList<>();
      for (StoredInstance i : state.instances()) {
        if (reservationId.equals(i.capacityReservationId()) && StoredInstance.RUNNING.equals(stateOf(i, now))) {
          StoredInstance interrupted = i.interrupted(reclaimAt);
          next = next.withReplaced(interrupted);
          reclaimed.add(toInstance(interrupted, now));
        }
      }
      log.atInfo().setMessage("simulated capacity block end").addKeyValue("reservation", reservationId)
          .addKeyValue("instances", reclaimed.size()).addKeyValue("reclaimAt", reclaimAt).log();
      return Change.of(next, new CapacityBlockEnd(ending.at(now, used(next, reservationId, now)), reclaimed, now, reclaimAt),
          call(now, Operation.CAPACITY_BLOCK_END, "", "", reservationId + " ends " + ending.endTime() + ", " + reclaimed.size()
              + " instances reclaimed at " + reclaimAt));
    });
  }

  /** EC2 reclaims a Capacity Block's instances this long before its end. */
  public static final Duration CAPACITY_BLOCK_RECLAIM_LEAD = Duration.ofMinutes(30);

  /**
   * Free addresses by subnet of the VPC: each instance not yet terminated holds one (its primary private IP) in the
   * subnet it was launched into, and gives it back once terminated, so a small subnet runs out as EC2's would.
   */
  private Map<String, Integer> freeAddresses(CloudState state, Instant now) {
    Map<String, Integer> free = new HashMap<>();
    subnetsAt(state, now).forEach(s -> free.put(s.id(), s.availableIps()));
    return free;
  }

  private List<Subnet> subnetsAt(CloudState state, Instant now) {
    Map<String, Integer> used = new HashMap<>();
    state.instances().stream().filter(i -> i.subnetId() != null && !StoredInstance.TERMINATED.equals(stateOf(i, now)))
        .forEach(i -> used.merge(i.subnetId(), 1, Integer::sum));
    return network.subnets(state.addedSubnets(), used);
  }

  private static Optional<CloudProviderException> invalid(LaunchRequest request) {
    if (request.cluster() == null || request.cluster().isBlank() || request.nodeClaim() == null || request.nodeClaim().isBlank()) {
      return Optional.of(new CloudProviderException(Kind.INVALID_REQUEST, "a launch needs a cluster and a NodeClaim name"));
    }
    if (request.instanceTypes().isEmpty() || request.capacityTypes().isEmpty() || request.images().isEmpty()) {
      return Optional.of(new CloudProviderException(Kind.INVALID_REQUEST, "launch of " + request.nodeClaim()
          + " needs at least one instance type, capacity type and image"));
    }
    return Optional.empty();
  }

  /**
   * Ownership first ({@link Ownership}): otherwise {@link Kind#NOT_OWNED} and nothing changes. Idempotent: an instance already shutting down or terminated, or unknown (state {@code not-found}), is
   * returned as it is.
   */
  @Override
  public Instance delete(String cluster, String nodeClaim, String instanceId) {
    playFaults(TERMINATE_INSTANCES);
    String claim = nodeClaim == null ? "" : nodeClaim;
    return store.mutate(state -> {
      Instant now = config.clock().instant();
      Optional<StoredInstance> found = state.instances().stream().filter(i -> i.id().equals(instanceId)).findFirst();
      if (found.isEmpty()) {
        return Change.unchanged(Instance.notFound(instanceId), call(now, Operation.TERMINATE_ALREADY_DONE, instanceId, claim, "not-found"));
      }
      StoredInstance instance = found.get();
      Optional<String> refusal = Ownership.problem(instance.tags(), cluster, nodeClaim);
      if (refusal.isPresent()) {
        log.atWarn().setMessage("simulated terminate refused").addKeyValue("instance", instanceId)
            .addKeyValue("nodeclaim", claim).addKeyValue("reason", refusal.get()).log();
        return Change.fail(call(now, Operation.TERMINATE_REFUSED, instanceId, claim, refusal.get()),
            new CloudProviderException(Kind.NOT_OWNED, "instance " + instanceId + " " + refusal.get()));
      }
      String current = stateOf(instance, now);
      if (StoredInstance.SHUTTING_DOWN.equals(current) || StoredInstance.TERMINATED.equals(current)) {
        return Change.unchanged(toInstance(instance, now), call(now, Operation.TERMINATE_ALREADY_DONE, instanceId, claim, current));
      }
      StoredInstance terminating = instance.terminating(now);
      log.atInfo().setMessage("simulated terminate").addKeyValue("instance", instanceId).addKeyValue("nodeclaim", claim).log();
      return Change.of(pruned(state.withReplaced(terminating), now), toInstance(terminating, now),
          call(now, Operation.TERMINATE, instanceId, claim, "was " + current));
    });
  }

  @Override
  public Optional<Instance> get(String instanceId) {
    playFaults(DESCRIBE_INSTANCES);
    Instant now = config.clock().instant();
    return store.read().instances().stream().filter(i -> i.id().equals(instanceId)).findFirst().map(i -> toInstance(i, now));
  }

  @Override
  public List<Instance> list(String cluster) {
    playFaults(DESCRIBE_INSTANCES);
    Instant now = config.clock().instant();
    return store.read().instances().stream()
        .filter(i -> Ownership.owns(i.tags(), cluster))
        .map(i -> toInstance(i, now))
        .filter(i -> !StoredInstance.TERMINATED.equals(i.state()))
        .toList();
  }

  /**
   * How long {@link #markUnavailable}, or a launch that finds an offering exhausted, takes the offering out, like
   * Karpenter's unavailable-offerings cache.
   */
  public static final Duration UNAVAILABLE_FOR = Duration.ofMinutes(3);
  /** Why a launch marks an exhausted offering: EC2's error code for it. */
  static final String NO_CAPACITY_REASON = "InsufficientInstanceCapacity";
  /** How long a spot interruption warning comes before the instance is reclaimed, as on EC2. */
  public static final Duration SPOT_INTERRUPTION_NOTICE = Duration.ofMinutes(2);

  /** Persisted, so every process sharing the state directory avoids the offering until the mark expires. */
  @Override
  public void markUnavailable(String instanceType, String zone, String capacityType, String reason) {
    OfferingKey offering = new OfferingKey(instanceType, zone, capacityType);
    store.mutate(state -> {
      Instant now = config.clock().instant();
      Instant until = now.plus(UNAVAILABLE_FOR);
      return Change.of(state.withUnavailableUntil(offering, until, reason, now), null,
          unavailableCall(now, offering, until, reason, ""));
    });
  }

  private static CloudCall unavailableCall(Instant now, OfferingKey offering, Instant until, String reason, String nodeClaim) {
    log.atInfo().setMessage("simulated offering marked unavailable").addKeyValue("instanceType", offering.instanceType())
        .addKeyValue("zone", offering.zone()).addKeyValue("capacityType", offering.capacityType())
        .addKeyValue("nodeclaim", nodeClaim).addKeyValue("reason", reason).addKeyValue("until", until).log();
    return call(now, Operation.MARK_UNAVAILABLE, "", nodeClaim, offering + " until " + until + " (" + reason + ")");
  }

  /** A spot interruption in progress: the warning's time and when the instance is reclaimed. */
  public record SpotInterruption(Instance instance, Instant warnedAt, Instant reclaimAt) {}

  /**
   * Sandbox and test hook: EC2 takes a running spot instance back. The instance keeps running until
   * {@code warnedAt + notice}, then shuts down and terminates on its own (Farrier may terminate it earlier). Persisted:
   * every process on the state directory sees the deadline. The warning itself is posted by
   * {@link SimulatedInterruptions}. Refuses instances that are not running spot instances.
   */
  public SpotInterruption interruptSpot(String instanceId, Duration notice) {
    return store.mutate(state -> {
      Instant now = config.clock().instant();
      Optional<StoredInstance> found = state.instances().stream().filter(i -> i.id().equals(instanceId)).findFirst();
      String problem = found.isEmpty() ? "is unknown"
          : !WellKnown.CAPACITY_SPOT.equals(found.get().capacityType()) ? "is not a spot instance"
          : !StoredInstance.RUNNING.equals(stateOf(found.get(), now)) ? "is " + stateOf(found.get(), now) + ", not running"
          : null;
      if (problem != null) {
        return Change.fail(call(now, Operation.SPOT_INTERRUPTION, instanceId, "", "refused: " + problem),
            new CloudProviderException(Kind.INVALID_REQUEST, "cannot interrupt instance " + instanceId + ": it " + problem));
      }
      Instant reclaimAt = now.plus(notice);
      StoredInstance interrupted = found.get().interrupted(reclaimAt);
      log.atInfo().setMessage("simulated spot interruption").addKeyValue("instance", instanceId)
          .addKeyValue("reclaimAt", reclaimAt).log();
      return Change.of(state.withReplaced(interrupted), new SpotInterruption(toInstance(interrupted, now), now, reclaimAt),
          call(now, Operation.SPOT_INTERRUPTION, instanceId, interrupted.tags().getOrDefault(WellKnown.TAG_NODECLAIM, ""),
              "reclaimed at " + reclaimAt));
    });
  }

  /**
   * The catalogue's types, with the offerings marked unavailable (by {@link #markUnavailable} or by a launch that
   * found them exhausted) reported so until the mark expires. Offerings exhausted by {@link #setOfferingAvailable}
   * are reported available until a launch tries them: EC2 does not announce a shortage either.
   */
  @Override
  public List<InstanceType> instanceTypes() {
    playFaults(DESCRIBE_INSTANCE_TYPES);
    Set<OfferingKey> unavailable = new HashSet<>(store.read().unavailableAt(config.clock().instant()));
    if (unavailable.isEmpty()) {
      return catalog.instanceTypes();
    }
    return catalog.instanceTypes().stream().map(t -> t.withOfferings(t.offerings().stream().map(o -> new Offering(o.zone(),
        o.capacityType(), o.pricePerHour(), !unavailable.contains(new OfferingKey(t.name(), o.zone(), o.capacityType())))).toList()))
        .toList();
  }

  @Override
  public List<Image> resolveImages(List<AmiSelectorTerm> terms) {
    return amis.resolve(terms);
  }

  @Override
  public List<Subnet> resolveSubnets(List<SubnetTerm> terms) {
    return SimulatedNetwork.resolveSubnets(terms, subnetsAt(store.read(), config.clock().instant()));
  }

  /**
   * Test and sandbox hook: one more subnet in {@code zone} of the cluster's VPC with room for {@code addresses}
   * instances, tagged {@code tags} (with the discovery tag the shipped selectors find it). Persisted.
   */
  public Subnet addSubnet(String zone, int addresses, Map<String, String> tags) {
    return store.mutate(state -> {
      Instant now = config.clock().instant();
      StoredSubnet added = network.added(zone, state.addedSubnets().size() + 1, addresses, tags);
      return Change.of(state.withAddedSubnet(added), new Subnet(added.id(), zone, added.zoneId(), addresses, added.tags()),
          call(now, Operation.ADD_SUBNET, "", "", added.id() + " " + zone + " addresses=" + addresses));
    });
  }

  @Override
  public List<SecurityGroup> resolveSecurityGroups(List<SecurityGroupTerm> terms) {
    return network.resolveSecurityGroups(terms);
  }

  /**
   * As {@link CloudProvider#resolveInstanceProfile} says, with IAM simulated in the state file: a role must exist
   * ({@link SimulatedCloudConfig#initialRoles} or {@link #createRole}), else {@link RoleNotFoundException} and nothing
   * changes, as IAM answers NoSuchEntity; a {@code spec.instanceProfile} must have been registered
   * ({@link #registerInstanceProfile}) or created from a role. Idempotent: a profile that already holds the role is
   * found by its deterministic name and nothing is written.
   */
  @Override
  public String resolveInstanceProfile(InstanceProfileRequest request) {
    String problem = request.problem();
    if (problem != null) {
      throw new CloudProviderException(Kind.INVALID_REQUEST, problem);
    }
    if (request.instanceProfile() != null) {
      return store.read().instanceProfile(request.instanceProfile()).map(StoredInstanceProfile::name)
          .orElseThrow(() -> new CloudProviderException(Kind.NOT_FOUND, "instance profile " + request.instanceProfile()
              + " of EC2NodeClass " + request.nodeClass() + " does not exist"));
    }
    CloudState read = store.read();
    if (!roleExists(read, request.role())) {
      throw new RoleNotFoundException(request.role(), request.nodeClass());
    }
    String name = InstanceProfileNames.managed(config.region(), request.cluster(), request.nodeClass());
    Map<String, String> tags = Map.of(WellKnown.TAG_OWNER, "farrier", WellKnown.TAG_CLUSTER, request.cluster(),
        WellKnown.TAG_NODECLASS, request.nodeClass());
    Optional<StoredInstanceProfile> current = read.instanceProfile(name);
    if (current.isPresent() && request.role().equals(current.get().role()) && current.get().tags().equals(tags)) {
      return name;
    }
    return store.mutate(state -> {
      Instant now = config.clock().instant();
      Optional<StoredInstanceProfile> existing = state.instanceProfile(name);
      if (existing.isPresent() && !("farrier".equals(existing.get().tags().get(WellKnown.TAG_OWNER))
          && request.cluster().equals(existing.get().tags().get(WellKnown.TAG_CLUSTER)))) {
        return Change.fail(call(now, Operation.INSTANCE_PROFILE_PUT, "", "", name + " refused: not Farrier's"),
            new CloudProviderException(Kind.NOT_OWNED, "instance profile " + name + " exists without Farrier's tags for cluster "
                + request.cluster() + "; not changing it"));
      }
      if (existing.isPresent() && request.role().equals(existing.get().role())) {
        return Change.unchanged(name, null);
      }
      StoredInstanceProfile profile = new StoredInstanceProfile(name, request.role(), tags);
      return Change.of(state.withInstanceProfile(profile), name, call(now, Operation.INSTANCE_PROFILE_PUT, "", "",
          name + " role=" + request.role() + (existing.isPresent() ? " (was " + existing.get().role() + ")" : "")));
    });
  }

  private boolean roleExists(CloudState state, String role) {
    return config.initialRoles().contains(role) || state.roles().contains(role);
  }

  /** Test and sandbox hook: IAM gets a role of this name (as {@code aws iam create-role}). Persisted; idempotent. */
  public void createRole(String role) {
    store.mutate(state -> state.roles().contains(role) ? Change.unchanged(null, null)
        : Change.of(state.withRole(role), null, call(config.clock().instant(), Operation.CREATE_ROLE, "", "", role)));
  }

  /** Test hook: an instance profile a user made themselves, holding {@code role}, without Farrier's tags. */
  public void registerInstanceProfile(String name, String role) {
    store.mutate(state -> Change.of(state.withInstanceProfile(new StoredInstanceProfile(name, role, Map.of())), null,
        call(config.clock().instant(), Operation.REGISTER_INSTANCE_PROFILE, "", "", name + " role=" + role)));
  }

  /** The role of an instance profile the simulated IAM holds, empty when there is no such profile. */
  public Optional<String> instanceProfileRole(String name) {
    return store.read().instanceProfile(name).map(StoredInstanceProfile::role);
  }

  /** The tags of an instance profile the simulated IAM holds, empty when there is no such profile. */
  public Optional<Map<String, String>> instanceProfileTags(String name) {
    return store.read().instanceProfile(name).map(StoredInstanceProfile::tags);
  }

  /** Every instance the cloud still reports (terminated ones for a while), with its node bootstrap. */
  public List<SimulatedInstance> instances() {
    Instant now = config.clock().instant();
    return store.read().instances().stream()
        .map(i -> new SimulatedInstance(toInstance(i, now), i.privateIp(), i.nodeLabels(), i.nodeTaints(), i.foreign(),
            EphemeralStorage.RAID0.equals(i.instanceStorePolicy())))
        .toList();
  }

  /**
   * Test and sandbox hook: no capacity for this offering until made available again. Persisted. Not reported by
   * {@link #instanceTypes}: a launch that reaches the offering marks it unavailable and tries the next one.
   */
  public void setOfferingAvailable(OfferingKey offering, boolean available) {
    store.mutate(state -> {
      Instant now = config.clock().instant();
      return Change.of(state.withOfferingExhausted(offering, !available), null,
          call(now, Operation.SET_OFFERING_AVAILABILITY, "", "", offering + " available=" + available));
    });
  }

  /** The EC2 API operations faults can be injected into ({@code *} for all of them). */
  public static final String RUN_INSTANCES = "RunInstances";
  public static final String TERMINATE_INSTANCES = "TerminateInstances";
  public static final String DESCRIBE_INSTANCES = "DescribeInstances";
  public static final String DESCRIBE_INSTANCE_TYPES = "DescribeInstanceTypes";
  public static final String DESCRIBE_CAPACITY_RESERVATIONS = "DescribeCapacityReservations";

  /**
   * Test and sandbox hook: {@code operation} (an EC2 API name above, or {@code *}) is throttled, fails with a server
   * error, or answers only after {@code delay}, for {@code duration}. Persisted, so a worker sharing the state dir plays it
   * too; a new fault for the same operation and kind replaces the old one.
   */
  public void injectFault(String operation, InjectedFault.Kind kind, Duration duration, Duration delay) {
    store.mutate(state -> {
      Instant now = config.clock().instant();
      List<InjectedFault> next = new ArrayList<>(state.faults().stream()
          .filter(f -> now.isBefore(f.until()) && !(f.operation().equals(operation) && f.kind() == kind)).toList());
      next.add(new InjectedFault(operation, kind, now.plus(duration), delay.toMillis()));
      return Change.of(state.withFaults(next), null, call(now, Operation.INJECT_FAULT, "", "", kind + " on " + operation + " for " + duration));
    });
  }

  /** Test and sandbox hook: every injected fault ends now. */
  public void clearFaults() {
    store.mutate(state -> Change.of(state.withFaults(List.of()), null,
        call(config.clock().instant(), Operation.INJECT_FAULT, "", "", "faults cleared")));
  }

  /** Plays the faults in force for {@code operation}: waits for a slow one, then fails for throttling or a server error. */
  private void playFaults(String operation) {
    List<InjectedFault> faults = store.read().faultsAt(operation, config.clock().instant());
    for (InjectedFault fault : faults) {
      if (fault.kind() == InjectedFault.Kind.SLOW && fault.delayMillis() > 0) {
        try {
          Thread.sleep(fault.delayMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new CloudProviderException(Kind.THROTTLED, operation + " interrupted while slow");
        }
      }
    }
    for (InjectedFault fault : faults) {
      CloudProviderException failure = switch (fault.kind()) {
        case THROTTLING -> new CloudProviderException(Kind.THROTTLED, operation + " failed: RequestLimitExceeded: Request limit exceeded.");
        case SERVER_ERROR -> new CloudProviderException(Kind.THROTTLED, operation + " failed: InternalError: An internal error has"
            + " occurred (HTTP 500)");
        case SLOW -> null;
      };
      recordFault(operation, fault);
      if (failure != null) {
        throw failure;
      }
    }
  }

  private void recordFault(String operation, InjectedFault fault) {
    store.mutate(state -> Change.of(state, null, call(config.clock().instant(), Operation.FAULT, "", "",
        fault.kind() + " " + operation + (fault.kind() == InjectedFault.Kind.SLOW ? " +" + fault.delayMillis() + "ms" : ""))));
  }

  /** Every offering of the catalogue that {@code which} selects. */
  private List<OfferingKey> offerings(java.util.function.Predicate<OfferingKey> which) {
    return catalog.instanceTypes().stream().flatMap(t -> t.offerings().stream()
        .map(o -> new OfferingKey(t.name(), o.zone(), o.capacityType()))).filter(which).toList();
  }

  /**
   * Test and sandbox hook: marks every offering {@code which} selects unavailable, in one write, as launches that found
   * each of them out of capacity would (the catalogue reports them unavailable for {@link #UNAVAILABLE_FOR}).
   */
  public void markUnavailable(java.util.function.Predicate<OfferingKey> which, String reason) {
    List<OfferingKey> offerings = offerings(which);
    store.mutate(state -> {
      Instant now = config.clock().instant();
      CloudState next = state;
      for (OfferingKey offering : offerings) {
        next = next.withUnavailableUntil(offering, now.plus(UNAVAILABLE_FOR), reason, now);
      }
      return Change.of(next, null, call(now, Operation.MARK_UNAVAILABLE, "", "", offerings.size() + " offerings: " + reason));
    });
  }

  /**
   * Test and sandbox hook: no capacity (or capacity again) for every offering {@code which} selects, e.g. all those a
   * NodePool allows. As {@link #setOfferingAvailable}, not announced: launches find out. Giving capacity back also ends
   * the marks launches left, so the offerings are tried again at once.
   */
  public void setOfferingsAvailable(java.util.function.Predicate<OfferingKey> which, boolean available) {
    List<OfferingKey> offerings = offerings(which);
    store.mutate(state -> {
      Instant now = config.clock().instant();
      CloudState next = state;
      for (OfferingKey offering : offerings) {
        next = next.withOfferingExhausted(offering, !available);
      }
      if (available) {
        next = next.withoutUnavailable(offerings);
      }
      return Change.of(next, null, call(now, Operation.SET_OFFERING_AVAILABILITY, "", "", offerings.size() + " offerings available="
          + available));
    });
  }

  /**
   * Test hook: an instance Farrier did not launch (running at once, with exactly {@code tags}, no node bootstrap),
   * to prove that Farrier never terminates it.
   */
  public Instance registerForeignInstance(String instanceType, String zone, Map<String, String> tags) {
    InstanceType type = catalog.find(instanceType).orElseThrow(() -> new CloudProviderException(Kind.INVALID_REQUEST,
        "unknown instance type " + instanceType + " in " + config.region()));
    return store.mutate(state -> {
      Instant now = config.clock().instant();
      long sequence = state.launches() + 1;
      String ip = PrivateAddresses.ip(state.network(), sequence, zone, catalog.zones());
      double price = type.offerings().stream().filter(o -> o.capacityType().equals(WellKnown.CAPACITY_ON_DEMAND))
          .mapToDouble(Offering::pricePerHour).findFirst().orElse(0);
      StoredInstance foreign = new StoredInstance(instanceId("foreign/" + sequence), instanceType, zone,
          WellKnown.CAPACITY_ON_DEMAND, "", ip, PrivateAddresses.dnsName(ip, config.region()), price, tags, Map.of(),
          List.of(), now.minus(config.bootDelay()), null, true, null, null, List.of(), null, null);
      return Change.of(state.withLaunched(foreign), toInstance(foreign, now),
          call(now, Operation.REGISTER_FOREIGN, foreign.id(), "", describe(foreign)));
    });
  }

  private String stateOf(StoredInstance instance, Instant now) {
    return instance.state(now, config.bootDelay(), config.terminateDelay());
  }

  private Instance toInstance(StoredInstance i, Instant now) {
    return new Instance(i.id(), i.providerId(), i.instanceType(), i.zone(), i.capacityType(), i.imageId(),
        stateOf(i, now), i.privateDnsName(), i.pricePerHour(), i.tags(), i.launchTime(), i.subnetId(), i.securityGroupIds(),
        i.capacityReservationId());
  }

  /** Drops instances terminated longer than {@link #TERMINATED_VISIBILITY} ago, as EC2 forgets them. */
  private CloudState pruned(CloudState state, Instant now) {
    return state.withInstances(state.instances().stream()
        .filter(i -> i.goingAwayAt() == null
            || now.isBefore(i.goingAwayAt().plus(config.terminateDelay()).plus(TERMINATED_VISIBILITY)))
        .toList());
  }

  private static CloudCall call(Instant now, Operation operation, String instanceId, String nodeClaim, String detail) {
    return new CloudCall(now, operation, instanceId, nodeClaim, detail);
  }

  private static String describe(StoredInstance i) {
    return i.instanceType() + " " + i.zone() + " " + i.capacityType() + " " + i.imageId();
  }

  /**
   * The EC2NodeClass settings a launch template would carry that the call log shows (what a real EC2 applies to the
   * instance): {@code associatePublicIPAddress}, {@code detailedMonitoring} and {@code instanceStorePolicy}, each only
   * when set; empty when none is.
   */
  private static String launchSettings(NodeClassLaunch launch) {
    StringBuilder settings = new StringBuilder();
    if (launch.associatePublicIPAddress() != null) {
      settings.append(" associatePublicIPAddress=").append(launch.associatePublicIPAddress());
    }
    if (launch.detailedMonitoring() != null) {
      settings.append(" detailedMonitoring=").append(launch.detailedMonitoring());
    }
    if (launch.instanceStorePolicy() != null) {
      settings.append(" instanceStorePolicy=").append(launch.instanceStorePolicy());
    }
    var tracking = launch.connectionTracking();
    if (tracking != null) {
      settings.append(" connectionTracking=").append(tracking.tcpEstablishedTimeout()).append('/').append(tracking.udpStreamTimeout())
          .append('/').append(tracking.udpTimeout());
    }
    if (launch.ipPrefixCount() != null) {
      settings.append(" ipPrefixCount=").append(launch.ipPrefixCount());
    }
    if (launch.cpuOptions() != null && launch.cpuOptions().nestedVirtualization() != null) {
      settings.append(" nestedVirtualization=").append(launch.cpuOptions().nestedVirtualization());
    }
    launch.blockDeviceMappings().stream().filter(m -> m.ebs() != null && m.ebs().volumeInitializationRate() != null)
        .forEach(m -> settings.append(" volumeInitializationRate=").append(m.deviceName()).append(':').append(m.ebs().volumeInitializationRate()));
    if (launch.context() != null) {
      settings.append(" context=").append(launch.context());
    }
    return settings.toString();
  }

  /** {@code i-} and 17 hex digits, derived from the launch sequence so ids never repeat within one state dir. */
  private static String instanceId(String seed) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8));
      return "i-" + HexFormat.of().formatHex(digest).substring(0, 17);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK ships SHA-256", e);
    }
  }
}

package dev.farrier.activities.cloud.simulated;

import com.fasterxml.jackson.annotation.JsonAlias;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Everything the simulated cloud remembers ({@code state.json}).
 *
 * @param network               second octet of every private IP ({@code 10.<network>...}), chosen when the state
 *                              is created, so clouds in different state dirs sharing one Kubernetes cluster (tests
 *                              on one local stack) rarely give two Nodes the same name
 * @param launches              instances ever launched; the sequence behind ids and private IPs
 * @param instances             live instances and those terminated within {@link SimulatedCloud#TERMINATED_VISIBILITY}
 * @param exhaustedOfferings    offerings with no capacity now (set by tests and the sandbox); like EC2, the cloud
 *                              does not announce them: a launch finds out and marks them in {@code unavailableUntil}.
 *                              Read from the field's old name too, whose entries meant the same shortage.
 * @param instanceProfiles      IAM instance profiles (IAM is global, but the simulated cloud is one account)
 * @param unavailableUntil      offerings marked unavailable by {@link SimulatedCloud#markUnavailable} or by a launch that
 *                              found them exhausted, each until a time
 * @param faults                API faults injected by tests and the sandbox ({@link SimulatedCloud#injectFault}), each
 *                              until a time; persisted, so the worker's process sees the sandbox's switches
 * @param addedSubnets          subnets added to the cluster's VPC by {@link SimulatedCloud#addSubnet}, beside the one per
 *                              zone {@link SimulatedNetwork} derives
 * @param roles                 IAM roles made by {@link SimulatedCloud#createRole}, beside the configured ones
 * @param reservations          capacity reservations made by {@link SimulatedCloud#createCapacityReservation}
 */
record CloudState(int network, long launches, List<StoredInstance> instances,
    @JsonAlias("unavailableOfferings") List<OfferingKey> exhaustedOfferings,
    List<StoredInstanceProfile> instanceProfiles, List<UnavailableOffering> unavailableUntil, List<InjectedFault> faults,
    List<StoredSubnet> addedSubnets, List<String> roles, List<StoredReservation> reservations) {
  /** An offering taken out for a while (a spot interruption, a launch that found no capacity). */
  record UnavailableOffering(OfferingKey offering, Instant until, String reason) {}

  static CloudState initial(int network) {
    return new CloudState(network, 0, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
  }

  CloudState {
    instances = instances == null ? List.of() : List.copyOf(instances);
    exhaustedOfferings = exhaustedOfferings == null ? List.of() : List.copyOf(exhaustedOfferings);
    instanceProfiles = instanceProfiles == null ? List.of() : List.copyOf(instanceProfiles);
    unavailableUntil = unavailableUntil == null ? List.of() : List.copyOf(unavailableUntil);
    faults = faults == null ? List.of() : List.copyOf(faults);
    addedSubnets = addedSubnets == null ? List.of() : List.copyOf(addedSubnets);
    roles = roles == null ? List.of() : List.copyOf(roles);
    reservations = reservations == null ? List.of() : List.copyOf(reservations);
  }

  /** {@code reservation} added, or in place of the one with its id. */
  CloudState withReservation(StoredReservation reservation) {
    List<StoredReservation> next = new ArrayList<>(reservations.stream().filter(r -> !r.id().equals(reservation.id())).toList());
    next.add(reservation);
    return new CloudState(network, launches, instances, exhaustedOfferings, instanceProfiles, unavailableUntil, faults, addedSubnets, roles,
        next);
  }

  /** Offerings marked unavailable whose marks have not expired at {@code now}: what the cloud reports. */
  List<OfferingKey> unavailableAt(Instant now) {
    return unavailableUntil.stream().filter(u -> now.isBefore(u.until())).map(UnavailableOffering::offering).toList();
  }

  CloudState withUnavailableUntil(OfferingKey offering, Instant until, String reason, Instant now) {
    List<UnavailableOffering> next = new ArrayList<>(unavailableUntil.stream()
        .filter(u -> !u.offering().equals(offering) && now.isBefore(u.until())).toList());
    next.add(new UnavailableOffering(offering, until, reason));
    return new CloudState(network, launches, instances, exhaustedOfferings, instanceProfiles, next, faults, addedSubnets, roles, reservations);
  }

  Optional<StoredInstanceProfile> instanceProfile(String name) {
    return instanceProfiles.stream().filter(p -> p.name().equals(name)).findFirst();
  }

  CloudState withInstanceProfile(StoredInstanceProfile profile) {
    List<StoredInstanceProfile> next = new ArrayList<>(instanceProfiles.stream().filter(p -> !p.name().equals(profile.name())).toList());
    next.add(profile);
    return new CloudState(network, launches, instances, exhaustedOfferings, next, unavailableUntil, faults, addedSubnets, roles, reservations);
  }

  CloudState withLaunched(StoredInstance instance) {
    List<StoredInstance> next = new ArrayList<>(instances);
    next.add(instance);
    return new CloudState(network, launches + 1, next, exhaustedOfferings, instanceProfiles, unavailableUntil, faults, addedSubnets, roles, reservations);
  }

  CloudState withRegistered(StoredInstance instance) {
    List<StoredInstance> next = new ArrayList<>(instances);
    next.add(instance);
    return new CloudState(network, launches, next, exhaustedOfferings, instanceProfiles, unavailableUntil, faults, addedSubnets, roles, reservations);
  }

  CloudState withReplaced(StoredInstance instance) {
    List<StoredInstance> next = instances.stream().map(i -> i.id().equals(instance.id()) ? instance : i).toList();
    return new CloudState(network, launches, next, exhaustedOfferings, instanceProfiles, unavailableUntil, faults, addedSubnets, roles, reservations);
  }

  CloudState withInstances(List<StoredInstance> next) {
    return new CloudState(network, launches, next, exhaustedOfferings, instanceProfiles, unavailableUntil, faults, addedSubnets, roles, reservations);
  }

  CloudState withOfferingExhausted(OfferingKey offering, boolean exhausted) {
    List<OfferingKey> next = new ArrayList<>(exhaustedOfferings);
    next.remove(offering);
    if (exhausted) {
      next.add(offering);
    }
    return new CloudState(network, launches, instances, next, instanceProfiles, unavailableUntil, faults, addedSubnets, roles, reservations);
  }

  /** The faults in force at {@code now} for an EC2 API operation (or for every one, {@code *}). */
  List<InjectedFault> faultsAt(String operation, Instant now) {
    return faults.stream().filter(f -> now.isBefore(f.until()) && (f.operation().equals("*") || f.operation().equals(operation))).toList();
  }

  CloudState withFaults(List<InjectedFault> next) {
    return new CloudState(network, launches, instances, exhaustedOfferings, instanceProfiles, unavailableUntil, next, addedSubnets, roles, reservations);
  }

  CloudState withoutUnavailable(List<OfferingKey> offerings) {
    return new CloudState(network, launches, instances, exhaustedOfferings, instanceProfiles,
        unavailableUntil.stream().filter(u -> !offerings.contains(u.offering())).toList(), faults, addedSubnets, roles, reservations);
  }

  CloudState withAddedSubnet(StoredSubnet subnet) {
    List<StoredSubnet> next = new ArrayList<>(addedSubnets);
    next.add(subnet);
    return new CloudState(network, launches, instances, exhaustedOfferings, instanceProfiles, unavailableUntil, faults, next, roles, reservations);
  }

  CloudState withRole(String role) {
    List<String> next = new ArrayList<>(roles);
    if (!next.contains(role)) {
      next.add(role);
    }
    return new CloudState(network, launches, instances, exhaustedOfferings, instanceProfiles, unavailableUntil, faults, addedSubnets, next, reservations);
  }
}

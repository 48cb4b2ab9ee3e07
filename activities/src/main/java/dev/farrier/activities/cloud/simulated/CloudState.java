package dev.farrier.activities.cloud.simulated;

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
 * @param unavailableOfferings  offerings with no capacity now (set by tests and the sandbox)
 * @param instanceProfiles      IAM instance profiles (IAM is global, but the simulated cloud is one account)
 * @param unavailableUntil      offerings marked unavailable by {@link SimulatedCloud#markUnavailable}, each until a time
 */
record CloudState(int network, long launches, List<StoredInstance> instances, List<OfferingKey> unavailableOfferings,
    List<StoredInstanceProfile> instanceProfiles, List<UnavailableOffering> unavailableUntil) {
  /** An offering taken back for a while (a spot interruption). */
  record UnavailableOffering(OfferingKey offering, Instant until, String reason) {}

  static CloudState initial(int network) {
    return new CloudState(network, 0, List.of(), List.of(), List.of(), List.of());
  }

  CloudState {
    instances = instances == null ? List.of() : List.copyOf(instances);
    unavailableOfferings = unavailableOfferings == null ? List.of() : List.copyOf(unavailableOfferings);
    instanceProfiles = instanceProfiles == null ? List.of() : List.copyOf(instanceProfiles);
    unavailableUntil = unavailableUntil == null ? List.of() : List.copyOf(unavailableUntil);
  }

  /** Offerings without capacity at {@code now}: those set by a test plus the marks that have not expired. */
  List<OfferingKey> unavailableAt(Instant now) {
    List<OfferingKey> all = new ArrayList<>(unavailableOfferings);
    unavailableUntil.stream().filter(u -> now.isBefore(u.until())).map(UnavailableOffering::offering).forEach(all::add);
    return all;
  }

  CloudState withUnavailableUntil(OfferingKey offering, Instant until, String reason, Instant now) {
    List<UnavailableOffering> next = new ArrayList<>(unavailableUntil.stream()
        .filter(u -> !u.offering().equals(offering) && now.isBefore(u.until())).toList());
    next.add(new UnavailableOffering(offering, until, reason));
    return new CloudState(network, launches, instances, unavailableOfferings, instanceProfiles, next);
  }

  Optional<StoredInstanceProfile> instanceProfile(String name) {
    return instanceProfiles.stream().filter(p -> p.name().equals(name)).findFirst();
  }

  CloudState withInstanceProfile(StoredInstanceProfile profile) {
    List<StoredInstanceProfile> next = new ArrayList<>(instanceProfiles.stream().filter(p -> !p.name().equals(profile.name())).toList());
    next.add(profile);
    return new CloudState(network, launches, instances, unavailableOfferings, next, unavailableUntil);
  }

  CloudState withLaunched(StoredInstance instance) {
    List<StoredInstance> next = new ArrayList<>(instances);
    next.add(instance);
    return new CloudState(network, launches + 1, next, unavailableOfferings, instanceProfiles, unavailableUntil);
  }

  CloudState withRegistered(StoredInstance instance) {
    List<StoredInstance> next = new ArrayList<>(instances);
    next.add(instance);
    return new CloudState(network, launches, next, unavailableOfferings, instanceProfiles, unavailableUntil);
  }

  CloudState withReplaced(StoredInstance instance) {
    List<StoredInstance> next = instances.stream().map(i -> i.id().equals(instance.id()) ? instance : i).toList();
    return new CloudState(network, launches, next, unavailableOfferings, instanceProfiles, unavailableUntil);
  }

  CloudState withInstances(List<StoredInstance> next) {
    return new CloudState(network, launches, next, unavailableOfferings, instanceProfiles, unavailableUntil);
  }

  CloudState withOfferingAvailable(OfferingKey offering, boolean available) {
    List<OfferingKey> next = new ArrayList<>(unavailableOfferings);
    next.remove(offering);
    if (!available) {
      next.add(offering);
    }
    return new CloudState(network, launches, instances, next, instanceProfiles, unavailableUntil);
  }
}

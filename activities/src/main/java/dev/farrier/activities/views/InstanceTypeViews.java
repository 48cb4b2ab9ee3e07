package dev.farrier.activities.views;

import dev.farrier.activities.cloud.CapacityReservation;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.InstanceTypeLabels;
import dev.farrier.activities.cloud.WindowsFamily;
import dev.farrier.activities.cloud.aws.EphemeralStorage;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.OfferingView;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The planner's view of the cloud's instance types: what planning, the status loop's capacity check and the scheduling
 * benchmark all feed the planner, so they see the same capacity and offerings.
 */
public final class InstanceTypeViews {
  private InstanceTypeViews() {}

  /**
   * The catalogue's types of the given Kubernetes archs, as the planner sees them (also the status loop's capacity check),
   * each with the ephemeral storage a node of it offers ({@link EphemeralStorage#bytes}: the instance store under RAID0)
   * and the os of {@code amiFamily}'s nodes: a Windows family's types are labelled {@code kubernetes.io/os=windows}
   * with their {@code node.kubernetes.io/windows-build}, and only amd64 ones are offered (as Karpenter's AWS
   * provider gives its Windows types no os on arm64); every other family's are Linux.
   */
  public static List<InstanceTypeView> instanceTypes(List<InstanceType> catalog, Set<String> archs, EphemeralStorage storage,
      String amiFamily) {
    return instanceTypes(catalog, t -> archs.contains(t.kubernetesArch()), storage, amiFamily, List.of());
  }

  /**
   * The catalogue's types {@code launchable} admits (planning: those an image of the class fits), as the planner sees
   * them; for a Windows family only amd64 types, labelled as Windows nodes of its build; with a {@code reserved}
   * offering per capacity reservation of the type (karpenter-provider-aws's {@code ReservedCapacityResolver}): in the
   * reservation's zone, priced at the on-demand price divided by {@link #RESERVED_PRICE_DIVISOR} (free, as the instances
   * are paid for already, yet ordered as on-demand is for consolidation), available while the reservation is active with
   * room left and the type is offered in that zone at all.
   */
  public static List<InstanceTypeView> instanceTypes(List<InstanceType> catalog, Predicate<InstanceType> launchable, EphemeralStorage storage,
      String amiFamily, List<CapacityReservation> reservations) {
    Optional<WindowsFamily> windows = WindowsFamily.of(amiFamily);
    return catalog.stream()
        .filter(t -> launchable.test(t) && (windows.isEmpty() || WINDOWS_ARCH.equals(t.kubernetesArch())))
        .map(t -> withReservations(windows.map(w -> windowsView(t, storage.bytes(t), w)).orElseGet(() -> view(t, storage.bytes(t))), t,
            reservations))
        .toList();
  }

  private static final String WINDOWS_ARCH = "amd64";

  private static InstanceTypeView windowsView(InstanceType t, long ephemeralStorageBytes, WindowsFamily windows) {
    InstanceTypeView linux = view(t, ephemeralStorageBytes);
    var labels = new HashMap<>(linux.labels());
    labels.putAll(windows.nodeLabels());
    return new InstanceTypeView(linux.name(), linux.arch(), labels, linux.capacity(), linux.offerings());
  }

  /** Karpenter's divisor of the on-demand price for a reserved offering. */
  public static final double RESERVED_PRICE_DIVISOR = 10_000_000.0;

  private static InstanceTypeView withReservations(InstanceTypeView view, InstanceType type, List<CapacityReservation> reservations) {
    List<OfferingView> offerings = new ArrayList<>(view.offerings());
    for (CapacityReservation r : reservations) {
      if (!r.instanceType().equals(type.name())) {
        continue;
      }
      double onDemand = type.offerings().stream().filter(o -> o.capacityType().equals(WellKnown.CAPACITY_ON_DEMAND))
          .mapToDouble(o -> o.pricePerHour()).min().orElse(0);
      boolean zoneOffered = type.offerings().stream().anyMatch(o -> o.zone().equals(r.zone()));
      int room = r.availableInstanceCount() == CapacityReservation.UNKNOWN_COUNT ? Integer.MAX_VALUE : r.availableInstanceCount();
      offerings.add(new OfferingView(r.zone(), WellKnown.CAPACITY_RESERVED, onDemand / RESERVED_PRICE_DIVISOR,
          zoneOffered && r.launchable(), new OfferingView.Reservation(r.id(), r.reservationType(), r.interruptible(), room)));
    }
    return offerings.size() == view.offerings().size() ? view
        : new InstanceTypeView(view.name(), view.arch(), view.labels(), view.capacity(), offerings);
  }

  /** The planner's view of a catalogue type with Karpenter's default root volume ({@link EphemeralStorage#DEFAULT_BYTES}). */
  public static InstanceTypeView view(InstanceType t) {
    return view(t, EphemeralStorage.DEFAULT_BYTES);
  }

  /**
   * The planner's view of a catalogue type whose nodes offer {@code ephemeralStorageBytes}; public so the scheduling
   * benchmark feeds the planner what it sees here.
   */
  public static InstanceTypeView view(InstanceType t, long ephemeralStorageBytes) {
    var capacity = t.capacity(ephemeralStorageBytes);
    var offerings = t.offerings().stream().map(o -> new OfferingView(o.zone(), o.capacityType(), o.pricePerHour(), o.available())).toList();
    return new InstanceTypeView(t.name(), t.kubernetesArch(), InstanceTypeLabels.of(t), capacity, offerings);
  }
}

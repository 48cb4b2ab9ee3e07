package dev.farrier.planner;

import dev.farrier.model.Requirement;
import dev.farrier.model.WellKnown;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How many offerings (instance type, zone, capacity type) a NodePool's requirements allow, and how many of them the
 * cloud offers now: when none is, the NodePool cannot launch anything, whatever its pods ask, and says so.
 *
 * @param allowed   offerings the NodePool's requirements allow
 * @param available of those, the ones not marked unavailable (out of capacity, or taken back by a spot interruption)
 */
public record OfferingCapacity(int allowed, int available) {
  public static OfferingCapacity of(List<Requirement> requirements, List<InstanceTypeView> types) {
    Requirements pool = Requirements.of(requirements, "nodepool");
    int allowed = 0;
    int available = 0;
    for (InstanceTypeView type : types) {
      for (OfferingView offering : type.offerings()) {
        Map<String, String> labels = new TreeMap<>(type.labels());
        labels.put(WellKnown.ZONE_LABEL, offering.zone());
        labels.put(WellKnown.CAPACITY_TYPE_LABEL, offering.capacityType());
        if (pool.allowsOn(labels, labels::containsKey)) {
          allowed++;
          if (offering.available()) {
            available++;
          }
        }
      }
    }
    return new OfferingCapacity(allowed, available);
  }

  /** Offerings are allowed, and every one of them is out of capacity. */
  public boolean exhausted() {
    return allowed > 0 && available == 0;
  }
}

package dev.farrier.bench;

import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.views.InstanceTypeViews;
import dev.farrier.catalog.InstanceTypeCatalog;
import dev.farrier.planner.InstanceTypeView;
import java.util.ArrayList;
import java.util.List;

/**
 * The benchmark's instance types: {@code count} types of the real us-east-1 catalogue the project ships (all zones,
 * on-demand and simulated spot offerings), converted exactly as the planning activity converts them. The catalogue
 * holds about 1,300 types; an evenly spaced pick over the name-sorted list keeps every family and size range in.
 */
final class BenchCatalog {
  private BenchCatalog() {}

  static List<InstanceTypeView> instanceTypes(int count) {
    List<InstanceType> all = InstanceTypeCatalog.load(InstanceTypeCatalog.DEFAULT_REGION).instanceTypes();
    if (count > all.size()) {
      throw new IllegalArgumentException("the catalogue has " + all.size() + " instance types, " + count + " asked for");
    }
    List<InstanceTypeView> picked = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      picked.add(InstanceTypeViews.view(all.get((int) ((long) i * all.size() / count))));
    }
    return picked;
  }

  /** The cheapest available offering of a type, in USD per hour. */
  static double cheapestPrice(InstanceTypeView type) {
    return type.offerings().stream().filter(o -> o.available()).mapToDouble(o -> o.pricePerHour()).min()
        .orElse(Double.POSITIVE_INFINITY);
  }
}

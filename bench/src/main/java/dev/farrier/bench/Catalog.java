package dev.farrier.bench;

import dev.farrier.model.Resources;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodeAllocatable;
import java.util.List;
import java.util.Locale;

/**
 * The instance types a benchmark plans with, and the kubelet settings its NodePool's node class gives them: together
 * they make each type's allocatable, which the planner, the plan's checks and the lower bounds must all agree on.
 *
 * @param name        what {@code --catalog} calls it
 * @param description one line for the table's preamble
 */
record Catalog(String name, String description, List<InstanceTypeView> types, KubeletSettings kubelet) {
  static final String US_EAST_1 = "us-east-1";
  static final String KARPENTER = "karpenter";

  Catalog {
    types = List.copyOf(types);
  }

  /** {@code us-east-1}: 400 real types ({@link BenchCatalog}), the EKS AMI's kubelet defaults; {@code karpenter}: {@link KarpenterFakeCatalog}. */
  static Catalog named(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case US_EAST_1 -> new Catalog(US_EAST_1, "400 instance types (us-east-1)", BenchCatalog.instanceTypes(400),
          KubeletSettings.DEFAULTS);
      case KARPENTER -> KarpenterFakeCatalog.of(KarpenterFakeCatalog.BENCHMARK_TYPES);
      default -> throw new IllegalArgumentException("unknown catalogue '" + name + "': " + US_EAST_1 + " or " + KARPENTER);
    };
  }

  Resources allocatable(InstanceTypeView type) {
    return NodeAllocatable.of(type, kubelet);
  }
}

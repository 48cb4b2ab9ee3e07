package dev.farrier.bench;

import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.EvictionThreshold;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.OfferingView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The instance types Karpenter's scheduling benchmark plans with: its fake cloud provider's {@code InstanceTypes(400)}
 * ({@code pkg/cloudprovider/fake/instancetype.go} of {@code sigs.k8s.io/karpenter}, the release in tools/versions.env),
 * rebuilt from its facts so Farrier plans on the same catalogue and both plans are priced alike.
 *
 * <p>What it matches: type {@code i} (0 to 399) is {@code fake-it-i}, amd64, with {@code i+1} vCPU, {@code 2(i+1)} GiB
 * of memory and {@code 10(i+1)} max pods. Its five offerings are all available and all at one price: spot in
 * {@code test-zone-1} and {@code test-zone-2}, on-demand in {@code test-zone-1}, {@code -2} and {@code -3}. The price is
 * the fake's 0.1 per vCPU plus 0.1 per GB of memory, where GB is 10^9 bytes (not GiB): {@code 0.3147483648 (i+1)} per
 * hour, the same per vCPU for every type. Its overhead is a kube-reserved of 100m CPU and 10Mi memory and nothing
 * else (no system reserve, eviction threshold or VM overhead), so allocatable is capacity less 100m and 10Mi.
 *
 * <p>What it cannot match directly: Farrier's planner always takes a VM memory overhead of 7.5% (Karpenter's AWS
 * default) off capacity, and the fake has none. So each type's memory capacity is stated as the least whole MiB that
 * leaves exactly {@code 2(i+1)} GiB after that overhead, and the node class's kubelet settings
 * ({@link #KUBELET}) reserve 100m and 10Mi with a zero eviction threshold: allocatable is then exactly Karpenter's
 * (checked for every type by the tests). Nothing else reads the stated memory here (no limits, no memory labels).
 * Of the fake's labels only {@code size} (small, or large above 4 vCPU and 8 GiB) and {@code integer} (the vCPUs) are
 * kept; its OS set (linux, windows, darwin) and the {@code special} label are not, as Farrier launches Linux only and
 * no benchmark pod selects them.
 */
final class KarpenterFakeCatalog {
  private static final long MIB = 1L << 20;
  /** {@code fake.InstanceTypes(400)} in Karpenter's benchmark setup. */
  static final int BENCHMARK_TYPES = 400;
  static final List<String> SPOT_ZONES = List.of("test-zone-1", "test-zone-2");
  static final List<String> ON_DEMAND_ZONES = List.of("test-zone-1", "test-zone-2", "test-zone-3");
  /** The fake's overhead: kube-reserved 100m CPU and 10Mi memory, no eviction threshold. */
  static final KubeletSettings KUBELET = new KubeletSettings(null, null, Resources.of(100, 10 * MIB, 0), null,
      List.of(EvictionThreshold.ofBytes(0)), List.of());

  /** Farrier's fixed VM memory overhead, in tenths of a percent of the capacity's whole MiB, rounded up. */
  private static final long VM_OVERHEAD_PER_MILLE = 75;

  private KarpenterFakeCatalog() {}

  static Catalog of(int count) {
    List<InstanceTypeView> types = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      types.add(type(i));
    }
    return new Catalog(Catalog.KARPENTER, count + " instance types of Karpenter's fake cloud provider (fake-it-0.."
        + (count - 1) + ": i+1 vCPU, 2(i+1) GiB, 0.1/vCPU + 0.1/GB per hour, spot in 2 zones, on-demand in 3)", types, KUBELET);
  }

  static InstanceTypeView type(int i) {
    long vcpu = i + 1;
    long memoryMiB = 2 * 1024 * vcpu;
    double price = price(vcpu, memoryMiB * MIB);
    List<OfferingView> offerings = new ArrayList<>();
    SPOT_ZONES.forEach(z -> offerings.add(new OfferingView(z, WellKnown.CAPACITY_SPOT, price, true)));
    ON_DEMAND_ZONES.forEach(z -> offerings.add(new OfferingView(z, WellKnown.CAPACITY_ON_DEMAND, price, true)));
    String size = vcpu > 4 && memoryMiB > 8 * 1024 ? "large" : "small";
    return new InstanceTypeView("fake-it-" + i, "amd64", Map.of("size", size, "integer", Long.toString(vcpu)),
        Resources.of(vcpu * 1000, statedMemoryMiB(memoryMiB) * MIB, 10 * vcpu), offerings);
  }

  /** The fake's {@code PriceFromResources}: 0.1 per vCPU plus 0.1 per 10^9 bytes of memory. */
  static double price(long vcpu, long memoryBytes) {
    return 0.1 * vcpu + 0.1 * memoryBytes / 1e9;
  }

  /** The least whole MiB whose VM overhead, as Farrier's planner takes it, leaves {@code memoryMiB}. */
  static long statedMemoryMiB(long memoryMiB) {
    long x = memoryMiB * 1000 / (1000 - VM_OVERHEAD_PER_MILLE) - 2;
    // x - ceil(7.5% x) never falls and rises by at most 1 per MiB, so the first x that reaches memoryMiB hits it.
    while (x - (x * VM_OVERHEAD_PER_MILLE + 999) / 1000 < memoryMiB) {
      x++;
    }
    return x;
  }
}

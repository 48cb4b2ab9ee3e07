package dev.farrier.sandbox.bench.peer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.Offering;
import dev.farrier.activities.cloud.simulated.NodeResources;
import dev.farrier.catalog.InstanceTypeCatalog;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One catalogue for both controllers: the instance types Farrier's simulated cloud launches, written in the format of
 * Karpenter's kwok provider ({@code INSTANCE_TYPES_FILE_PATH}), so that both see the same names, zones, on-demand and
 * spot prices, max pods and allocatable.
 *
 * <p>This direction because Farrier's simulated cloud prices from real EC2 facts and Karpenter's provider takes any
 * file; the other way round would make Farrier plan on made-up types. Karpenter's provider subtracts a fixed 100m of
 * CPU and 10Mi of memory from what the file gives, so the file gives Farrier's simulated allocatable plus those, and
 * the allocatable each side schedules on is the same.
 *
 * <p>The types: the plain compute, general-purpose and memory families of generations 5 to 7 (c, m, r with no
 * suffix or a, g, i: Intel, AMD and Graviton, amd64 and arm64) in the sizes large to 4xlarge, as a general-purpose
 * NodePool of a platform team asks for: 96 types in us-east-1, under the 100 values a NodePool requirement takes.
 */
public final class KwokCatalogue {
  /** What Karpenter's kwok provider takes off each type's resources for the kubelet. */
  static final long KWOK_RESERVED_CPU_MILLIS = 100;
  static final long KWOK_RESERVED_MEMORY_MIB = 10;
  /** A NodePool requirement takes at most 100 values, and both NodePools list the types. */
  static final int MAX_TYPES = 100;
  private static final Pattern FAMILY = Pattern.compile("^([cmr])(\\d+)([agi]?)\\.(large|xlarge|2xlarge|4xlarge)$");

  private final List<InstanceType> types;

  private KwokCatalogue(List<InstanceType> types) {
    this.types = List.copyOf(types);
  }

  /** The benchmark's types from Farrier's catalogue of {@code region}. */
  public static KwokCatalogue of(InstanceTypeCatalog catalog) {
    var types = catalog.instanceTypes().stream().filter(KwokCatalogue::generalPurpose).toList();
    if (types.size() > MAX_TYPES) {
      throw new IllegalStateException(types.size() + " types: a NodePool requirement takes at most " + MAX_TYPES);
    }
    return new KwokCatalogue(types);
  }

  static KwokCatalogue of(List<InstanceType> types) {
    return new KwokCatalogue(types);
  }

  static boolean generalPurpose(InstanceType type) {
    Matcher family = FAMILY.matcher(type.name());
    return family.matches() && Integer.parseInt(family.group(2)) >= 5 && Integer.parseInt(family.group(2)) <= 7 && type.gpuCount() == 0 && !type.bareMetal()
        && !type.offerings().isEmpty();
  }

  public List<InstanceType> types() {
    return types;
  }

  public List<String> names() {
    return types.stream().map(InstanceType::name).sorted().toList();
  }

  /** The price of one hour of {@code instanceType} in {@code zone} as {@code capacityType}, if the catalogue has it. */
  public Optional<Double> price(String instanceType, String zone, String capacityType) {
    return types.stream().filter(t -> t.name().equals(instanceType)).flatMap(t -> t.offerings().stream())
        .filter(o -> o.zone().equals(zone) && o.capacityType().equals(capacityType)).map(Offering::pricePerHour).findFirst();
  }

  /** The file Karpenter's kwok provider reads: one entry per type, one offering per zone and capacity type. */
  public String json() {
    List<Map<String, Object>> entries = types.stream().map(KwokCatalogue::entry).toList();
    try {
      return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(entries);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Path write(Path file) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    return Files.writeString(file, json());
  }

  private static Map<String, Object> entry(InstanceType type) {
    Map<String, Quantity> allocatable = NodeResources.allocatable(type);
    Map<String, String> resources = new LinkedHashMap<>();
    resources.put("cpu", (millis(allocatable.get("cpu")) + KWOK_RESERVED_CPU_MILLIS) + "m");
    resources.put("memory", (mebibytes(allocatable.get("memory")) + KWOK_RESERVED_MEMORY_MIB) + "Mi");
    resources.put("ephemeral-storage", allocatable.get("ephemeral-storage").toString());
    resources.put("pods", allocatable.get("pods").toString());
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("name", type.name());
    entry.put("architecture", type.kubernetesArch());
    entry.put("operatingSystems", List.of("linux"));
    entry.put("resources", resources);
    entry.put("offerings", type.offerings().stream().map(KwokCatalogue::offering).toList());
    return entry;
  }

  private static Map<String, Object> offering(Offering offering) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("Price", offering.pricePerHour());
    o.put("Available", true);
    o.put("Requirements", List.of(
        Map.of("key", "karpenter.sh/capacity-type", "operator", "In", "values", List.of(offering.capacityType())),
        Map.of("key", "topology.kubernetes.io/zone", "operator", "In", "values", List.of(offering.zone()))));
    return o;
  }

  static long millis(Quantity quantity) {
    return Quantity.getAmountInBytes(quantity).multiply(BigDecimal.valueOf(1000)).longValueExact();
  }

  static long mebibytes(Quantity quantity) {
    return Quantity.getAmountInBytes(quantity).divide(BigDecimal.valueOf(1024 * 1024)).longValueExact();
  }
}

package dev.farrier.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.aws.EphemeralStorage;
import dev.farrier.activities.cloud.InstanceTypeLabels;
import dev.farrier.activities.views.InstanceTypeViews;
import dev.farrier.model.PodRef;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.ClaimNamer;
import dev.farrier.planner.NodePoolLimits;
import dev.farrier.planner.NodePoolView;
import dev.farrier.planner.PodSpecView;
import dev.farrier.planner.ProvisioningPlanner;
import dev.farrier.planner.ProvisioningSnapshot;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A NodePool requirement on each of Karpenter's AWS instance labels picks, from the real catalogue, only types whose
 * EC2 facts say so: the planner sees the labels {@link InstanceTypeLabels} makes, each checked here against the facts
 * themselves (or the type's name where the fact is the family).
 */
class WellKnownLabelsSelectTypesTest {
  private static InstanceTypeCatalog catalog;

  @BeforeAll
  static void load() {
    catalog = InstanceTypeCatalog.load("us-east-1");
  }

  private static Requirement req(String key, String operator, String... values) {
    return new Requirement(key, operator, List.of(values), null);
  }

  /** The types of the one claim planned for a small pod on a pool with {@code requirements}, best first. */
  private static List<InstanceType> planned(List<Requirement> requirements) {
    var pool = new NodePoolView("default", 0, requirements, Map.of(), List.of(), List.of(), "default", NodePoolLimits.NONE, Resources.ZERO,
        "hash", List.of(), "720h", 3600L);
    var pod = new PodSpecView(new PodRef("default", "p", "uid-p"), Resources.of(100, 128L << 20, 1), Map.of(), List.of(), List.of(),
        "ReplicaSet", false);
    var types = InstanceTypeViews.instanceTypes(catalog.instanceTypes(), Set.of("amd64", "arm64"), EphemeralStorage.DEFAULT, "AL2023");
    var plan = new ProvisioningPlanner().plan(new ProvisioningSnapshot(List.of(pod), List.of(pool), Map.of("default", types), List.of()),
        "b", ClaimNamer.standard());
    assertEquals(List.of(), plan.unschedulable(), "the pod is planned");
    return plan.claims().getFirst().instanceTypes().stream().map(n -> catalog.find(n).orElseThrow()).toList();
  }

  static Stream<Arguments> labels() {
    return Stream.of(
        Arguments.of(req(WellKnown.INSTANCE_HYPERVISOR_LABEL, "In", "xen"), (Predicate<InstanceType>) t -> "xen".equals(t.facts().hypervisor())),
        Arguments.of(req(WellKnown.INSTANCE_CPU_MANUFACTURER_LABEL, "In", "aws"),
            (Predicate<InstanceType>) t -> "AWS".equals(t.facts().cpuManufacturer()) && t.arch().equals("arm64")),
        Arguments.of(req(WellKnown.INSTANCE_CPU_SUSTAINED_CLOCK_SPEED_MHZ_LABEL, "Gt", "3900"),
            (Predicate<InstanceType>) t -> t.facts().sustainedClockMhz() > 3900),
        Arguments.of(req(WellKnown.INSTANCE_LOCAL_NVME_LABEL, "Gt", "100"), (Predicate<InstanceType>) t -> t.facts().localNvmeGib() > 100),
        Arguments.of(req(WellKnown.INSTANCE_NETWORK_BANDWIDTH_LABEL, "Gt", "20000"),
            (Predicate<InstanceType>) t -> t.facts().networkBandwidthMbps() > 20000),
        Arguments.of(req(WellKnown.INSTANCE_EBS_BANDWIDTH_LABEL, "Gt", "15000"), (Predicate<InstanceType>) t -> t.facts().ebsBandwidthMbps() > 15000),
        Arguments.of(req(WellKnown.INSTANCE_GPU_NAME_LABEL, "In", "t4"), (Predicate<InstanceType>) t -> t.name().startsWith("g4dn.")),
        Arguments.of(req(WellKnown.INSTANCE_GPU_MANUFACTURER_LABEL, "In", "amd"), (Predicate<InstanceType>) t -> t.name().startsWith("g4ad.")),
        Arguments.of(req(WellKnown.INSTANCE_GPU_COUNT_LABEL, "Gt", "3"), (Predicate<InstanceType>) t -> t.gpuCount() > 3),
        Arguments.of(req(WellKnown.INSTANCE_GPU_MEMORY_LABEL, "Gt", "40000"), (Predicate<InstanceType>) t -> t.facts().gpuMemoryMib() > 40000),
        Arguments.of(req(WellKnown.INSTANCE_ACCELERATOR_NAME_LABEL, "In", "inferentia2"), (Predicate<InstanceType>) t -> t.name().startsWith("inf2.")),
        Arguments.of(req(WellKnown.INSTANCE_ACCELERATOR_MANUFACTURER_LABEL, "In", "aws"),
            (Predicate<InstanceType>) t -> t.name().matches("(inf|trn)\\d.*")),
        Arguments.of(req(WellKnown.INSTANCE_ACCELERATOR_COUNT_LABEL, "Gt", "4"), (Predicate<InstanceType>) t -> t.facts().acceleratorCount() > 4),
        Arguments.of(req(WellKnown.INSTANCE_CAPABILITY_FLEX_LABEL, "In", "true"), (Predicate<InstanceType>) t -> t.name().contains("-flex.")),
        Arguments.of(req(WellKnown.INSTANCE_ENCRYPTION_IN_TRANSIT_LABEL, "In", "false"),
            (Predicate<InstanceType>) t -> Boolean.FALSE.equals(t.facts().encryptionInTransit())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("labels")
  void aRequirementOnTheLabelPicksOnlyTypesWithTheFact(Requirement requirement, Predicate<InstanceType> fact) {
    List<InstanceType> types = planned(List.of(requirement));
    assertFalse(types.isEmpty());
    assertTrue(types.stream().allMatch(fact), requirement + " planned " + types.stream().map(InstanceType::name).toList());
  }

  @Test
  void cpuManufacturerAmdPicksM6aAndC6aNotM6i() {
    List<String> names = planned(List.of(req(WellKnown.INSTANCE_CPU_MANUFACTURER_LABEL, "In", "amd"),
        req(WellKnown.INSTANCE_FAMILY_LABEL, "In", "m6a", "c6a", "m6i"))).stream().map(InstanceType::name).toList();
    assertTrue(names.contains("c6a.large") && names.contains("m6a.large"), names.toString());
    assertTrue(names.stream().noneMatch(n -> n.startsWith("m6i.")), names.toString());
  }

  @Test
  void labelsFollowUpstreamsValuesAndAreLeftOutForUnknownFacts() {
    Map<String, String> g4dn = InstanceTypeLabels.of(catalog.find("g4dn.8xlarge").orElseThrow());
    assertEquals(Map.of(WellKnown.INSTANCE_HYPERVISOR_LABEL, "nitro", WellKnown.INSTANCE_CPU_MANUFACTURER_LABEL, "intel",
        WellKnown.INSTANCE_CPU_SUSTAINED_CLOCK_SPEED_MHZ_LABEL, "2500", WellKnown.INSTANCE_EBS_BANDWIDTH_LABEL, "9500",
        WellKnown.INSTANCE_NETWORK_BANDWIDTH_LABEL, "50000", WellKnown.INSTANCE_GPU_NAME_LABEL, "t4",
        WellKnown.INSTANCE_GPU_MANUFACTURER_LABEL, "nvidia", WellKnown.INSTANCE_GPU_COUNT_LABEL, "1", WellKnown.INSTANCE_GPU_MEMORY_LABEL, "16384",
        WellKnown.INSTANCE_LOCAL_NVME_LABEL, "900"), subset(g4dn, WellKnown.INSTANCE_HYPERVISOR_LABEL, WellKnown.INSTANCE_CPU_MANUFACTURER_LABEL,
        WellKnown.INSTANCE_CPU_SUSTAINED_CLOCK_SPEED_MHZ_LABEL, WellKnown.INSTANCE_EBS_BANDWIDTH_LABEL, WellKnown.INSTANCE_NETWORK_BANDWIDTH_LABEL,
        WellKnown.INSTANCE_GPU_NAME_LABEL, WellKnown.INSTANCE_GPU_MANUFACTURER_LABEL, WellKnown.INSTANCE_GPU_COUNT_LABEL,
        WellKnown.INSTANCE_GPU_MEMORY_LABEL, WellKnown.INSTANCE_LOCAL_NVME_LABEL), "karpenter-provider-aws's own example values");
    assertEquals("false", g4dn.get(WellKnown.INSTANCE_CAPABILITY_FLEX_LABEL));
    assertEquals("true", g4dn.get(WellKnown.INSTANCE_ENCRYPTION_IN_TRANSIT_LABEL));

    Map<String, String> m5 = InstanceTypeLabels.of(catalog.find("m5.large").orElseThrow());
    assertTrue(m5.keySet().stream().noneMatch(k -> k.contains("-gpu-") || k.contains("-accelerator-") || k.endsWith("-local-nvme")), m5.toString());
    assertEquals("radeon-pro-v520", InstanceTypeLabels.of(catalog.find("g4ad.xlarge").orElseThrow()).get(WellKnown.INSTANCE_GPU_NAME_LABEL));
    Map<String, String> trn1 = InstanceTypeLabels.of(catalog.find("trn1.2xlarge").orElseThrow());
    assertEquals(List.of("trainium", "aws", "1"), List.of(trn1.get(WellKnown.INSTANCE_ACCELERATOR_NAME_LABEL),
        trn1.get(WellKnown.INSTANCE_ACCELERATOR_MANUFACTURER_LABEL), trn1.get(WellKnown.INSTANCE_ACCELERATOR_COUNT_LABEL)));
    assertFalse(InstanceTypeLabels.of(catalog.find("m5.metal").orElseThrow()).containsKey(WellKnown.INSTANCE_HYPERVISOR_LABEL),
        "EC2 gives bare metal no hypervisor");
  }

  private static Map<String, String> subset(Map<String, String> labels, String... keys) {
    Map<String, String> out = new java.util.HashMap<>();
    for (String key : keys) {
      if (labels.containsKey(key)) {
        out.put(key, labels.get(key));
      }
    }
    return out;
  }
}

package dev.farrier.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.aws.EphemeralStorage;
import dev.farrier.activities.views.InstanceTypeViews;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.PodRef;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.ClaimNamer;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodePoolLimits;
import dev.farrier.planner.NodePoolView;
import dev.farrier.planner.PodSpecView;
import dev.farrier.planner.ProvisioningPlanner;
import dev.farrier.planner.ProvisioningSnapshot;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A NodePool whose EC2NodeClass is Windows plans only Windows nodes, from the real catalogue as the planning activity
 * feeds it ({@link InstanceTypeViews}): a pod that asks for {@code kubernetes.io/os: windows} lands only there, a pod
 * that asks for linux never does, however the pools are weighted.
 */
class WindowsPoolsPlanTest {
  private static Map<String, List<InstanceTypeView>> types;

  @BeforeAll
  static void load() {
    var catalog = InstanceTypeCatalog.load("us-east-1").instanceTypes();
    // As PlanningInputs gives them: the archs the class's images resolve to (Windows images are x86_64 only).
    types = Map.of(
        "linux", InstanceTypeViews.instanceTypes(catalog, Set.of("amd64", "arm64"), EphemeralStorage.DEFAULT, "AL2023"),
        "windows", InstanceTypeViews.instanceTypes(catalog, Set.of("amd64", "arm64"), EphemeralStorage.of("Windows2022", null, null),
            "Windows2022"));
  }

  private static NodePoolView pool(String name, int weight) {
    return new NodePoolView(name, weight, List.of(), Map.of(), List.of(), List.of(), name, NodePoolLimits.NONE, Resources.ZERO,
        "hash", List.of(), "720h", 3600L);
  }

  private static PodSpecView pod(String name, Map<String, String> nodeSelector) {
    return new PodSpecView(new PodRef("default", name, "uid-" + name), Resources.of(500, 1L << 30, 1), nodeSelector, List.of(), List.of(),
        "ReplicaSet", false);
  }

  private static ProvisioningPlan plan(PodSpecView pod, int windowsWeight) {
    var snapshot = new ProvisioningSnapshot(List.of(pod), List.of(pool("linux", 10), pool("windows", windowsWeight)), types, List.of(),
        List.of(), Map.of("windows", new KubeletSettings(110, null, null, null, List.of(), List.of())));
    return new ProvisioningPlanner().plan(snapshot, "b", ClaimNamer.standard());
  }

  private static NodeClaimRequest onlyClaim(ProvisioningPlan plan) {
    assertEquals(List.of(), plan.unschedulable());
    assertEquals(1, plan.claims().size());
    return plan.claims().getFirst();
  }

  @Test
  void aWindowsPodLandsOnlyOnTheWindowsPoolOnAmd64() {
    NodeClaimRequest claim = onlyClaim(plan(pod("win", Map.of(WellKnown.OS_LABEL, "windows")), 0));
    assertEquals("windows", claim.nodePool());
    Map<String, InstanceTypeView> byName = new java.util.HashMap<>();
    types.get("windows").forEach(t -> byName.put(t.name(), t));
    assertTrue(claim.instanceTypes().stream().map(byName::get).allMatch(t -> t.arch().equals("amd64")
        && "windows".equals(t.labels().get(WellKnown.OS_LABEL)) && "10.0.20348".equals(t.labels().get(WellKnown.WINDOWS_BUILD_LABEL))),
        claim.instanceTypes().toString());
  }

  @Test
  void aWindowsPodOfAnotherBuildIsNotPlanned() {
    var plan = plan(pod("win2019", Map.of(WellKnown.OS_LABEL, "windows", WellKnown.WINDOWS_BUILD_LABEL, "10.0.17763")), 0);
    assertEquals(List.of(), plan.claims());
    assertEquals(1, plan.unschedulable().size());
    assertEquals("windows", onlyClaim(plan(pod("win2022", Map.of(WellKnown.OS_LABEL, "windows",
        WellKnown.WINDOWS_BUILD_LABEL, "10.0.20348")), 0)).nodePool());
  }

  @Test
  void aLinuxPodNeverLandsOnTheWindowsPoolEvenWhenItWeighsMore() {
    assertEquals("linux", onlyClaim(plan(pod("lin", Map.of(WellKnown.OS_LABEL, "linux")), 100)).nodePool());
  }

  @Test
  void noWindowsTypeIsArm64AndLinuxTypesStayLinux() {
    assertTrue(types.get("windows").stream().noneMatch(t -> t.arch().equals("arm64")));
    assertTrue(types.get("linux").stream().anyMatch(t -> t.arch().equals("arm64")));
    assertTrue(types.get("linux").stream().allMatch(t -> "linux".equals(t.labels().get(WellKnown.OS_LABEL))
        && !t.labels().containsKey(WellKnown.WINDOWS_BUILD_LABEL)));
  }
}

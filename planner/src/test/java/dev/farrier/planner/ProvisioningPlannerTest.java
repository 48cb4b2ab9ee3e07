package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.ReplacementPlan;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.PodRef;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.Taint;
import dev.farrier.model.Toleration;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ProvisioningPlannerTest {
  private final ProvisioningPlanner planner = new ProvisioningPlanner();

  /** Every catalogue type, cheapest (spot) offering first. */
  private static final List<String> ALL_RANKED = List.of("m6g.large", "m5.large", "m6g.xlarge", "c7i.xlarge",
      "m5.xlarge", "r6i.xlarge", "m5.2xlarge", "g5.xlarge");

  private ProvisioningPlan plan(List<PodSpecView> pods, List<NodePoolView> pools) {
    return planner.plan(snapshot(pods, pools, catalogue()), "batch-1", ClaimNamer.standard());
  }

  private static List<String> requirementValues(NodeClaimRequest claim, String key) {
    return claim.requirements().stream().filter(r -> r.key().equals(key) && r.operator().equals("In"))
        .findFirst().orElseThrow().values();
  }

  // ---- selector and affinity operators: one pod, one pool without requirements ----

  static Stream<Arguments> affinityCases() {
    String gpu = "karpenter.k8s.aws/instance-gpu-count";
    return Stream.of(
        Arguments.of("no constraint", List.of(), ALL_RANKED, null),
        Arguments.of("In arch", List.of(req(WellKnown.ARCH_LABEL, "In", "arm64")), List.of("m6g.large", "m6g.xlarge"), null),
        Arguments.of("NotIn instance type", List.of(req(WellKnown.INSTANCE_TYPE_LABEL, "NotIn", "m6g.large", "m5.large")),
            ALL_RANKED.subList(2, 8), null),
        Arguments.of("Exists gpu label", List.of(req(gpu, "Exists")), List.of("g5.xlarge"), null),
        Arguments.of("DoesNotExist gpu label", List.of(req(gpu, "DoesNotExist")), ALL_RANKED.subList(0, 7), null),
        Arguments.of("Gt generation", List.of(req(WellKnown.INSTANCE_GENERATION_LABEL, "Gt", "5")),
            List.of("m6g.large", "m6g.xlarge", "c7i.xlarge", "r6i.xlarge"), null),
        Arguments.of("Lt cpu", List.of(req(WellKnown.INSTANCE_CPU_LABEL, "Lt", "4")), List.of("m6g.large", "m5.large"), null),
        Arguments.of("In category", List.of(req(WellKnown.INSTANCE_CATEGORY_LABEL, "In", "c", "r")),
            List.of("c7i.xlarge", "r6i.xlarge"), null),
        Arguments.of("AND of two", List.of(req(WellKnown.ARCH_LABEL, "In", "amd64"), req(WellKnown.INSTANCE_CPU_LABEL, "Lt", "4")),
            List.of("m5.large"), null),
        Arguments.of("In nodepool", List.of(req(WellKnown.NODEPOOL_LABEL, "In", "default")), ALL_RANKED, null),
        Arguments.of("In other nodepool", List.of(req(WellKnown.NODEPOOL_LABEL, "In", "other")), null,
            "nodepool default: label karpenter.sh/nodepool=default conflicts with pod node affinity"
                + " karpenter.sh/nodepool In [other]"),
        Arguments.of("In os windows", List.of(req(WellKnown.OS_LABEL, "In", "windows")), null,
            "nodepool default: no instance type meets requirements [kubernetes.io/os In [windows]]"),
        Arguments.of("Gt with no number", List.of(req(WellKnown.INSTANCE_CPU_LABEL, "Gt", "many")), null,
            "nodepool default: pod node affinity karpenter.k8s.aws/instance-cpu Gt [many] cannot all hold"),
        Arguments.of("undefined custom label", List.of(req("team", "In", "a")), null,
            "nodepool default: pod node affinity team In [a] needs label team, which the nodepool does not define"),
        Arguments.of("NotIn undefined custom label", List.of(req("team", "NotIn", "a")), ALL_RANKED, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("affinityCases")
  void requiredNodeAffinityNarrowsInstanceTypes(String name, List<Requirement> term, List<String> expectedTypes, String reason) {
    PodSpecView pod = pod("p", 500, 512);
    if (!term.isEmpty()) {
      pod = withAffinity(pod, List.of(term));
    }
    ProvisioningPlan plan = plan(List.of(pod), List.of(pool("default")));
    if (expectedTypes != null) {
      assertEquals(1, plan.claims().size(), () -> plan.unschedulable().toString());
      assertEquals(expectedTypes, plan.claims().getFirst().instanceTypes());
    } else {
      assertEquals(List.of(), plan.claims());
      assertEquals(reason, plan.unschedulable().getFirst().reason());
    }
  }

  @Test
  void aPoolsGteAndLteBoundsIncludeTheirValueAndTheClaimSaysThemAsGtAndLt() {
    NodePoolView fourCpus = pool("default", 0, List.of(req(WellKnown.INSTANCE_CPU_LABEL, "Gte", "4"),
        req(WellKnown.INSTANCE_CPU_LABEL, "Lte", "4")), List.of());

    NodeClaimRequest claim = plan(List.of(pod("p", 500, 512)), List.of(fourCpus)).claims().getFirst();

    assertEquals(List.of("m6g.xlarge", "c7i.xlarge", "m5.xlarge", "r6i.xlarge", "g5.xlarge"), claim.instanceTypes());
    assertEquals(List.of(req(WellKnown.INSTANCE_CPU_LABEL, "Gt", "3"), req(WellKnown.INSTANCE_CPU_LABEL, "Lt", "5")),
        claim.requirements().stream().filter(r -> r.key().equals(WellKnown.INSTANCE_CPU_LABEL)).toList(),
        "a node selector knows only Gt and Lt");
  }

  @Test
  void nodeSelectorConflictWithPoolRequirementNamesBoth() {
    NodePoolView arm = pool("default", 0, List.of(req(WellKnown.ARCH_LABEL, "In", "arm64")), List.of());
    NodePoolView gpu = pool("gpu", 0, List.of(), List.of(taint("nvidia.com/gpu", "NoSchedule")));
    PodSpecView pod = withSelector(pod("p", 500, 512), Map.of(WellKnown.ARCH_LABEL, "amd64"));

    ProvisioningPlan plan = plan(List.of(pod), List.of(arm, gpu));

    assertEquals(List.of(), plan.claims());
    assertEquals("nodepool default: requirement kubernetes.io/arch In [arm64] conflicts with pod nodeSelector"
        + " kubernetes.io/arch=amd64; nodepool gpu: taint nvidia.com/gpu:NoSchedule not tolerated",
        plan.unschedulable().getFirst().reason());
  }

  @Test
  void nodeSelectorPicksTheCompatiblePoolAndNarrowsArch() {
    NodePoolView arm = pool("arm", 10, List.of(req(WellKnown.ARCH_LABEL, "In", "arm64")), List.of());
    NodePoolView any = pool("any", 0, List.of(), List.of());
    PodSpecView pod = withSelector(pod("p", 500, 512), Map.of(WellKnown.ARCH_LABEL, "amd64"));

    NodeClaimRequest claim = plan(List.of(pod), List.of(arm, any)).claims().getFirst();

    assertEquals("any", claim.nodePool());
    assertEquals(List.of("amd64"), requirementValues(claim, WellKnown.ARCH_LABEL));
    assertEquals(List.of("m5.large", "c7i.xlarge", "m5.xlarge", "r6i.xlarge", "m5.2xlarge", "g5.xlarge"), claim.instanceTypes());
  }

  @Test
  void affinityTermsAreOredAndTheFirstThatFitsIsUsed() {
    List<List<Requirement>> terms = List.of(
        List.of(req(WellKnown.ARCH_LABEL, "In", "s390x")),
        List.of(req(WellKnown.INSTANCE_CATEGORY_LABEL, "In", "c")));
    ProvisioningPlan plan = plan(List.of(withAffinity(pod("p", 500, 512), terms)), List.of(pool("default")));
    assertEquals(List.of("c7i.xlarge"), plan.claims().getFirst().instanceTypes());

    List<List<Requirement>> none = List.of(
        List.of(req(WellKnown.ARCH_LABEL, "In", "s390x")),
        List.of(req(WellKnown.NODEPOOL_LABEL, "In", "other")));
    String reason = plan(List.of(withAffinity(pod("p", 500, 512), none)), List.of(pool("default")))
        .unschedulable().getFirst().reason();
    assertTrue(reason.startsWith("nodepool default: (affinity term 1) no instance type meets requirements"), reason);
    assertTrue(reason.contains(", (affinity term 2) label karpenter.sh/nodepool=default conflicts"), reason);
  }

  @Test
  void zoneAndCapacityTypeSelectorsNarrowTheClaim() {
    PodSpecView pod = withSelector(pod("p", 500, 512),
        Map.of(WellKnown.ZONE_LABEL, "us-east-1b", WellKnown.CAPACITY_TYPE_LABEL, "on-demand"));
    NodeClaimRequest claim = plan(List.of(pod), List.of(pool("default"))).claims().getFirst();
    assertEquals(List.of("us-east-1b"), requirementValues(claim, WellKnown.ZONE_LABEL));
    assertEquals(List.of("on-demand"), requirementValues(claim, WellKnown.CAPACITY_TYPE_LABEL));
  }

  @Test
  void unavailableOfferingsAreNeverChosen() {
    InstanceTypeView soldOut = type("m5.large", "amd64", 2, 8, 29,
        List.of(new OfferingView("us-east-1a", "spot", 0.01, false), new OfferingView("us-east-1b", "on-demand", 0.09, true)));
    InstanceTypeView other = type("m5.xlarge", "amd64", 4, 16, 58, 0.05);
    PodSpecView pod = withSelector(pod("p", 500, 512), Map.of(WellKnown.ZONE_LABEL, "us-east-1a"));

    ProvisioningPlan plan = planner.plan(snapshot(List.of(pod), List.of(pool("default")), List.of(soldOut, other)),
        "b", ClaimNamer.standard());

    assertEquals(List.of("m5.xlarge"), plan.claims().getFirst().instanceTypes());
  }

  @Test
  void poolTemplateLabelsAreMatchedAndCustomRequirementsLabelTheClaim() {
    NodePoolView team = withLabels(pool("team", 0, List.of(req("tier", "In", "gold", "silver")), List.of()),
        Map.of("team", "a"));
    PodSpecView ok = withSelector(pod("ok", 500, 512), Map.of("team", "a", "tier", "silver"));
    PodSpecView wrong = withSelector(pod("wrong", 500, 512), Map.of("team", "b"));

    ProvisioningPlan plan = plan(List.of(ok, wrong), List.of(team));

    NodeClaimRequest claim = plan.claims().getFirst();
    assertEquals(List.of(new PodRef("default", "ok", "uid-ok")), claim.pods());
    assertEquals("a", claim.labels().get("team"));
    assertEquals("silver", claim.labels().get("tier"));
    assertEquals("nodepool team: label team=a conflicts with pod nodeSelector team=b", plan.unschedulable().getFirst().reason());
  }

  // ---- taints ----

  static Stream<Arguments> tolerationCases() {
    Taint gpu = new Taint("nvidia.com/gpu", "true", "NoSchedule");
    return Stream.of(
        Arguments.of("no toleration", gpu, List.of(), false),
        Arguments.of("Exists on key", gpu, List.of(new Toleration("nvidia.com/gpu", "Exists", null, null)), true),
        Arguments.of("Equal with value", gpu, List.of(new Toleration("nvidia.com/gpu", "Equal", "true", "NoSchedule")), true),
        Arguments.of("Equal with wrong value", gpu, List.of(new Toleration("nvidia.com/gpu", "Equal", "false", null)), false),
        Arguments.of("wrong effect", gpu, List.of(new Toleration("nvidia.com/gpu", "Exists", null, "NoExecute")), false),
        Arguments.of("empty key Exists tolerates all", gpu, List.of(new Toleration("", "Exists", null, null)), true),
        Arguments.of("PreferNoSchedule never blocks", new Taint("soft", "", "PreferNoSchedule"), List.of(), true),
        Arguments.of("NoExecute blocks", new Taint("hard", "", "NoExecute"), List.of(), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tolerationCases")
  void poolTaintsMustBeTolerated(String name, Taint taint, List<Toleration> tolerations, boolean placed) {
    NodePoolView tainted = pool("tainted", 0, List.of(), List.of(taint));
    ProvisioningPlan plan = plan(List.of(withTolerations(pod("p", 500, 512), tolerations)), List.of(tainted));
    assertEquals(placed ? 1 : 0, plan.claims().size());
    if (!placed) {
      assertEquals("nodepool tainted: taint " + Tolerations.describe(taint) + " not tolerated",
          plan.unschedulable().getFirst().reason());
    } else {
      assertEquals(List.of(taint), plan.claims().getFirst().taints());
    }
  }

  @Test
  void startupTaintsDoNotBlockAndAreCarriedOnTheClaim() {
    Taint cilium = new Taint("node.cilium.io/agent-not-ready", "true", "NoExecute");
    NodePoolView p = withStartupTaints(pool("default"), List.of(cilium));
    NodeClaimRequest claim = plan(List.of(pod("p", 500, 512)), List.of(p)).claims().getFirst();
    assertEquals(List.of(cilium), claim.startupTaints());
  }

  // ---- weights ----

  @Test
  void higherWeightWinsThenName() {
    List<NodePoolView> pools = List.of(pool("b-low", 1, List.of(), List.of()), pool("z-high", 50, List.of(), List.of()),
        pool("a-high", 50, List.of(), List.of()));
    assertEquals("a-high", plan(List.of(pod("p", 500, 512)), pools).claims().getFirst().nodePool());
  }

  @Test
  void aLowerWeightPoolTakesWhatTheHigherOneCannot() {
    NodePoolView high = pool("spot-arm", 100, List.of(req(WellKnown.ARCH_LABEL, "In", "arm64")), List.of());
    NodePoolView low = pool("default", 0, List.of(), List.of());
    PodSpecView x86 = withSelector(pod("x86", 500, 512), Map.of(WellKnown.ARCH_LABEL, "amd64"));
    assertEquals("default", plan(List.of(x86), List.of(low, high)).claims().getFirst().nodePool());
    assertEquals("spot-arm", plan(List.of(pod("any", 400, 512)), List.of(low, high)).claims().getFirst().nodePool());
  }

  @Test
  void aPodJoinsAClaimAlreadyPlannedBeforeOpeningOneInAHigherWeightPool() {
    // As Karpenter's scheduler does: in-flight claims first, new claims second (fewer nodes beats pool preference).
    NodePoolView high = pool("spot-arm", 100, List.of(req(WellKnown.ARCH_LABEL, "In", "arm64")), List.of());
    NodePoolView low = pool("default", 0, List.of(), List.of());
    PodSpecView x86 = withSelector(pod("x86", 500, 512), Map.of(WellKnown.ARCH_LABEL, "amd64"));
    ProvisioningPlan plan = plan(List.of(x86, pod("any", 400, 512)), List.of(low, high));
    assertEquals(1, plan.claims().size());
    assertEquals(List.of("x86", "any"), plan.claims().getFirst().pods().stream().map(PodRef::name).toList());
  }

  // ---- limits ----

  @Test
  void limitsCountCurrentUsage() {
    NodePoolView full = withLimits(pool("limited", 10, List.of(), List.of()), NodePoolLimits.cpuAndMemory(4000L, null),
        Resources.of(3000, 0, 0));
    ProvisioningPlan plan = plan(List.of(pod("p", 500, 512)), List.of(full));
    assertEquals(List.of(), plan.claims());
    assertEquals("nodepool limited: nodepool limits: cpu 5 > limit 4", plan.unschedulable().getFirst().reason());
  }

  @Test
  void limitsFilterTypesThatWouldExceedThem() {
    NodePoolView p = withLimits(pool("limited"), NodePoolLimits.cpuAndMemory(8000L, null), Resources.of(4000, 0, 0));
    NodeClaimRequest claim = plan(List.of(pod("p", 500, 512)), List.of(p)).claims().getFirst();
    assertEquals(List.of("m6g.large", "m5.large", "m6g.xlarge", "c7i.xlarge", "m5.xlarge", "r6i.xlarge", "g5.xlarge"),
        claim.instanceTypes(), "m5.2xlarge (8 cpu) would take the pool to 12");
  }

  @Test
  void claimsOfTheSameBatchCountAgainstLimits() {
    // Each pod needs a whole 4-cpu node; 10 cpu of limit leave room for two such nodes, not three.
    List<InstanceTypeView> types = List.of(type("c5.xlarge", "amd64", 4, 8, 58, 0.17));
    NodePoolView p = withLimits(pool("limited"), NodePoolLimits.cpuAndMemory(10_000L, null), Resources.ZERO);
    List<PodSpecView> pods = List.of(pod("a", 3000, 512), pod("b", 3000, 512), pod("c", 3000, 512));

    ProvisioningPlan plan = planner.plan(snapshot(pods, List.of(p), types), "b", ClaimNamer.standard());

    assertEquals(2, plan.claims().size());
    assertEquals(1, plan.unschedulable().size());
    assertEquals("nodepool limited: nodepool limits: cpu 12 > limit 10", plan.unschedulable().getFirst().reason());
  }

  @Test
  void aPodRejectedByALimitedPoolSpillsToTheNext() {
    NodePoolView limited = withLimits(pool("limited", 10, List.of(), List.of()), NodePoolLimits.cpuAndMemory(0L, null),
        Resources.ZERO);
    assertEquals("fallback", plan(List.of(pod("p", 500, 512)), List.of(limited, pool("fallback"))).claims().getFirst().nodePool());
  }

  // ---- ranking ----

  @Test
  void cheapestFirstCappedAtSixty() {
    List<InstanceTypeView> types = new ArrayList<>();
    for (int i = 0; i < 80; i++) {
      // Prices descending with the index, and two types per price to exercise the name tie-break.
      types.add(type(String.format("t%02d.large", i), "amd64", 2, 8, 29, 1.0 - (i / 2) * 0.01));
    }
    Collections.shuffle(types, new Random(7));
    ProvisioningPlan plan = planner.plan(snapshot(List.of(pod("p", 500, 512)), List.of(pool("default")), types), "b",
        ClaimNamer.standard());
    List<String> listed = plan.claims().getFirst().instanceTypes();
    assertEquals(60, listed.size());
    assertEquals(List.of("t78.large", "t79.large", "t76.large", "t77.large"), listed.subList(0, 4));
    assertEquals("t21.large", listed.getLast());
  }

  @Test
  void theClaimListsOnlyTypesWithRoomAndRequestsSumItsPods() {
    // 4 x 900m fit together in 3920m (an xlarge), not in 1930m (a large).
    List<PodSpecView> pods = List.of(pod("a", 900, 512), pod("b", 900, 512), pod("c", 900, 512), pod("d", 900, 512));
    ProvisioningPlan plan = plan(pods, List.of(pool("default")));
    assertEquals(1, plan.claims().size());
    NodeClaimRequest claim = plan.claims().getFirst();
    assertEquals(List.of("m6g.xlarge", "c7i.xlarge", "m5.xlarge", "r6i.xlarge", "m5.2xlarge", "g5.xlarge"), claim.instanceTypes());
    assertEquals(3600, claim.requests().milliCpu());
    assertEquals(4, claim.requests().pods());
    assertEquals(4, claim.pods().size());
  }

  @Test
  void packsBiggestFirstAndOpensAClaimWhenNothingHasRoom() {
    List<InstanceTypeView> types = List.of(type("m5.large", "amd64", 2, 8, 29, 0.096));
    // 1930m allocatable: 1500 + 400 fits, the second 1500 needs its own node and the 300 joins it.
    List<PodSpecView> pods = List.of(pod("small", 300, 128), pod("big1", 1500, 512), pod("mid", 400, 256), pod("big2", 1500, 512));
    ProvisioningPlan plan = planner.plan(snapshot(pods, List.of(pool("default")), types), "b", ClaimNamer.standard());
    assertEquals(2, plan.claims().size());
    assertEquals(List.of("big1", "mid"), plan.claims().get(0).pods().stream().map(PodRef::name).toList());
    assertEquals(List.of("big2", "small"), plan.claims().get(1).pods().stream().map(PodRef::name).toList());
  }

  @Test
  void podsWithIncompatibleSelectorsGetSeparateClaims() {
    PodSpecView arm = withSelector(pod("arm", 500, 512), Map.of(WellKnown.ARCH_LABEL, "arm64"));
    PodSpecView x86 = withSelector(pod("x86", 500, 512), Map.of(WellKnown.ARCH_LABEL, "amd64"));
    ProvisioningPlan plan = plan(List.of(arm, x86), List.of(pool("default")));
    assertEquals(2, plan.claims().size());
    assertEquals(List.of("arm64"), requirementValues(plan.claims().get(0), WellKnown.ARCH_LABEL));
    assertEquals(List.of("amd64"), requirementValues(plan.claims().get(1), WellKnown.ARCH_LABEL));
  }

  @Test
  void aPodTooBigForEveryTypeSaysHowBigTheLargestIs() {
    ProvisioningPlan plan = plan(List.of(pod("huge", 64_000, 512)), List.of(pool("default")));
    assertEquals("nodepool default: no instance type has room for cpu 64, memory 512Mi, pods 1"
        + " (largest allocatable: cpu 7910m, memory 29317Mi, pods 58, ephemeral-storage 17Gi)",
        plan.unschedulable().getFirst().reason());
  }

  @Test
  void noNodePools() {
    assertEquals("no NodePool exists", plan(List.of(pod("p", 1, 1)), List.of()).unschedulable().getFirst().reason());
  }

  @Test
  void extendedResourcesNeedATypeThatHasThem() {
    PodSpecView gpuPod = withRequests(pod("train", 1000, 1024), new Resources(1000, 1024 * MIB, 0, 1, Map.of("nvidia.com/gpu", 1L)));
    assertEquals(List.of("g5.xlarge"), plan(List.of(gpuPod), List.of(pool("default"))).claims().getFirst().instanceTypes());
  }

  @Test
  void daemonSetOverheadIsAddedWhenTheDaemonSetFitsThePool() {
    PodSpecView agent = withOwner(pod("agent", 200, 256), PodSpecView.OWNER_DAEMON_SET);
    PodSpecView armOnly = withSelector(withOwner(pod("arm-agent", 5000, 256), PodSpecView.OWNER_DAEMON_SET),
        Map.of(WellKnown.ARCH_LABEL, "s390x"));
    NodePoolView amd = pool("amd", 0, List.of(req(WellKnown.ARCH_LABEL, "In", "amd64")), List.of());
    ProvisioningSnapshot s = new ProvisioningSnapshot(List.of(pod("p", 1800, 512)), List.of(amd),
        Map.of("amd", catalogue()), List.of(agent, armOnly));

    NodeClaimRequest claim = planner.plan(s, "b", ClaimNamer.standard()).claims().getFirst();

    assertEquals(2000, claim.requests().milliCpu());
    assertEquals(2, claim.requests().pods());
    assertEquals("c7i.xlarge", claim.instanceTypes().getFirst(), "m5.large's 1930m cannot hold 2000m");
  }

  @Test
  void claimCarriesThePoolsTemplate() {
    NodePoolView p = pool("default", 0, List.of(req(WellKnown.CAPACITY_TYPE_LABEL, "In", "spot", "on-demand")), List.of());
    NodeClaimRequest claim = plan(List.of(pod("p", 500, 512)), List.of(p)).claims().getFirst();
    assertEquals("default-" + ClaimNamerHash.of("batch-1") + "-0", claim.name());
    assertEquals("default", claim.nodeClassName());
    assertEquals("hash-default", claim.nodePoolHash());
    assertEquals("720h", claim.expireAfter());
    assertEquals(3600L, claim.terminationGracePeriodSeconds());
    assertEquals("default", claim.labels().get(WellKnown.NODEPOOL_LABEL));
    assertEquals(List.of("on-demand", "spot"), requirementValues(claim, WellKnown.CAPACITY_TYPE_LABEL));
    assertEquals(List.of("us-east-1a", "us-east-1b", "us-east-1c"), requirementValues(claim, WellKnown.ZONE_LABEL));
    assertEquals(ALL_RANKED, requirementValues(claim, WellKnown.INSTANCE_TYPE_LABEL));
  }

  @Test
  void minValuesThatTheCompatibleTypesCannotMeetRejectThePool() {
    NodePoolView p = pool("default", 0, List.of(new Requirement(WellKnown.INSTANCE_FAMILY_LABEL, "In",
        List.of("m5", "c7i"), 3)), List.of());
    String reason = plan(List.of(pod("p", 500, 512)), List.of(p)).unschedulable().getFirst().reason();
    assertEquals("nodepool default: minValues 3 on karpenter.k8s.aws/instance-family not met: the compatible instance"
        + " types span only 2", reason);
  }

  @Test
  void sameInputInAnyOrderGivesTheSamePlan() {
    List<PodSpecView> pods = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      PodSpecView p = pod("p" + i, 100 + (i * 137) % 1900, 64 + (i * 311) % 4000);
      pods.add(i % 3 == 0 ? withSelector(p, Map.of(WellKnown.ARCH_LABEL, "arm64")) : p);
    }
    List<NodePoolView> pools = new ArrayList<>(List.of(pool("a"), pool("b", 5, List.of(), List.of())));
    ProvisioningPlan first = plan(pods, pools);
    Collections.shuffle(pods, new Random(1));
    Collections.reverse(pools);
    assertEquals(first, plan(pods, pools));
  }

  // ---- replacement ----

  @Test
  void replacementHoldsTheReschedulablePodsOfTheNode() {
    List<PodSpecView> onNode = List.of(pod("web", 600, 512), pod("api", 600, 512),
        withOwner(pod("agent", 200, 128), PodSpecView.OWNER_DAEMON_SET), withOwner(pod("static", 100, 64), PodSpecView.OWNER_NODE));
    ReplacementPlan plan = planner.planReplacement(new ReplacementSnapshot("old-1", "old-1-r", onNode, pool("default"),
        catalogue(), List.of(), Resources.ZERO));
    assertEquals("old-1-r", plan.replacement().name());
    assertEquals(2, plan.reschedulablePods());
    assertEquals(List.of("web", "api"), plan.replacement().pods().stream().map(PodRef::name).sorted(Collections.reverseOrder()).toList());
  }

  /**
   * A batch of provisioning buys four small nodes when they are cheaper per CPU; a replacement still takes every pod
   * of the node on one claim, so the node can be drained at once.
   */
  @Test
  void newClaimsAreSizedByPriceButAReplacementHoldsAllThePods() {
    List<InstanceTypeView> types = List.of(type("s.large", "amd64", 2, 4, 29, 0.05), type("s.2xlarge", "amd64", 8, 16, 58, 0.40));
    List<PodSpecView> pods = List.of(pod("a", 1000, 256), pod("b", 1000, 256), pod("c", 1000, 256), pod("d", 1000, 256));
    ProvisioningPlan batch = planner.plan(snapshot(pods, List.of(pool("default")), types), "b1", ClaimNamer.standard());
    assertEquals(4, batch.claims().size());
    batch.claims().forEach(c -> assertEquals("s.large", c.instanceTypes().getFirst()));

    ReplacementPlan replacement = planner.planReplacement(new ReplacementSnapshot("old-1", "old-1-r", pods, pool("default"),
        types, List.of(), Resources.ZERO));
    assertEquals(4, replacement.replacement().pods().size());
    assertEquals(List.of("s.2xlarge"), replacement.replacement().instanceTypes());
  }

  /**
   * A node whose pods spread over zones is replaced in its own zone: moved within it the spread stays as it was, moved
   * to another the kube-scheduler can leave a pod pending. Without spread, or when the NodePool no longer allows the
   * zone, the replacement may go to any zone.
   */
  @Test
  void aReplacementOfPodsSpreadOverZonesStaysInTheNodesZone() {
    List<PodSpecView> spread = List.of(SchedulingFixtures.spread(pod("web", 600, 512), SchedulingFixtures.zoneSpread("web", 1)));
    ReplacementPlan pinned = planner.planReplacement(new ReplacementSnapshot("old-1", "old-1-r", spread, pool("default"),
        catalogue(), List.of(), Resources.ZERO, KubeletSettings.DEFAULTS, "us-east-1b"));
    assertEquals(List.of("us-east-1b"), zones(pinned), pinned.toString());
    assertTrue(pinned.description().contains("in us-east-1b as its pods spread over zones"), pinned.description());

    ReplacementPlan free = planner.planReplacement(new ReplacementSnapshot("old-1", "old-1-r", List.of(pod("web", 600, 512)),
        pool("default"), catalogue(), List.of(), Resources.ZERO, KubeletSettings.DEFAULTS, "us-east-1b"));
    assertTrue(zones(free).isEmpty() || zones(free).size() > 1, "no spread, no pin: " + free);

    NodePoolView elsewhere = pool("default", 0, List.of(new Requirement(WellKnown.ZONE_LABEL, "In", List.of("us-east-1a"), null)), List.of());
    ReplacementPlan moved = planner.planReplacement(new ReplacementSnapshot("old-1", "old-1-r", spread, elsewhere,
        catalogue(), List.of(), Resources.ZERO, KubeletSettings.DEFAULTS, "us-east-1b"));
    assertEquals(List.of("us-east-1a"), zones(moved), "the NodePool no longer allows the node's zone: " + moved);
  }

  /** The zones the replacement's requirements allow (empty when none restricts them). */
  private static List<String> zones(ReplacementPlan plan) {
    return plan.replacement().requirements().stream().filter(r -> WellKnown.ZONE_LABEL.equals(r.key()) && "In".equals(r.operator()))
        .flatMap(r -> r.values().stream()).distinct().sorted().toList();
  }

  @Test
  void replacementHonoursTheNodeClassMaxPods() {
    List<PodSpecView> onNode = List.of(pod("a", 10, 64), pod("b", 10, 64), pod("c", 10, 64));
    ReplacementPlan plan = planner.planReplacement(new ReplacementSnapshot("old-1", "old-1-r", onNode, pool("default"),
        catalogue(), List.of(), Resources.ZERO, new KubeletSettings(2, null, null, null, null)));
    assertEquals(2, plan.replacement().pods().size(), "maxPods 2 leaves the third pod to the provisioner");
    assertTrue(plan.description().contains("1 pods do not fit"), plan.description());
  }

  @Test
  void noReplacementWhenOnlyDaemonSetPodsRun() {
    ReplacementPlan plan = planner.planReplacement(new ReplacementSnapshot("old-1", "old-1-r",
        List.of(withOwner(pod("agent", 200, 128), PodSpecView.OWNER_DAEMON_SET)), pool("default"), catalogue(), List.of(),
        Resources.ZERO));
    assertNull(plan.replacement());
    assertEquals(0, plan.reschedulablePods());
  }

  @Test
  void replacementInAPoolAtItsLimitDiscountsTheReplacedNode() {
    Resources replaced = Resources.of(2000, 8 * GIB, 29);
    NodePoolView atLimit = withLimits(pool("default"), NodePoolLimits.cpuAndMemory(2000L, null), replaced);
    ReplacementPlan plan = planner.planReplacement(new ReplacementSnapshot("old-1", "old-1-r",
        List.of(pod("web", 500, 512)), atLimit, catalogue(), List.of(), replaced));
    assertEquals(List.of("m6g.large", "m5.large"), plan.replacement().instanceTypes());

    ReplacementPlan without = planner.planReplacement(new ReplacementSnapshot("old-1", "old-1-r",
        List.of(pod("web", 500, 512)), atLimit, catalogue(), List.of(), Resources.ZERO));
    assertNull(without.replacement());
    assertEquals(1, without.reschedulablePods());
    assertTrue(without.description().contains("nodepool limits: cpu 4 > limit 2"), without.description());
  }

  /** The standard namer's hash, spelled out so the test fails if the naming scheme changes. */
  private static final class ClaimNamerHash {
    static String of(String batchId) {
      String name = ClaimNamer.standard().name("x", batchId, 0);
      return name.substring(2, name.length() - 2);
    }
  }
}

package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static dev.farrier.planner.SchedulingFixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.model.PodRef;
import dev.farrier.model.ProvisioningPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CSI volume limits as the kube-scheduler's NodeVolumeLimits filter counts them: an existing node takes at most its
 * CSINode's count of distinct volumes per driver; a claim shared by pods is one volume; a driver the CSINode does not
 * list, and a node without CSINode limits, have none. Each case: node {@code n1} (room to spare, EBS limit given) with
 * pods bound holding {@code ns/data-0} and {@code ns/data-1}, the pending pods, and how many of them land on n1.
 */
class CsiVolumeLimitsTest {
  private static final String EBS = "ebs.csi.aws.com";
  private static final String EFS = "efs.csi.aws.com";

  private static PodSpecView attaching(String name, CsiVolume... volumes) {
    return pod(name, 100, 128).withCsiVolumes(List.of(volumes));
  }

  private static CsiVolume ebs(String claim) {
    return new CsiVolume(EBS, "ns/" + claim);
  }

  private static ExistingNodeView n1(Map<String, Integer> limits) {
    ExistingNodeView n = node("n1", "default", "us-east-1a", cpuMem(4000, 16, 110),
        List.of(attaching("db-0", ebs("data-0")), attaching("db-1", ebs("data-1"))));
    return new ExistingNodeView(n.name(), n.nodePool(), n.labels(), n.taints(), n.allocatable(), n.pods(), n.promised(), true, true,
        List.of(), limits);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("a third EBS volume passes a limit of 2", Map.of(EBS, 2), List.of(attaching("p", ebs("data-2"))), 0),
        Arguments.of("a third EBS volume fits a limit of 3", Map.of(EBS, 3), List.of(attaching("p", ebs("data-2"))), 1),
        Arguments.of("a claim already attached there is not a new volume", Map.of(EBS, 2),
            List.of(attaching("p", ebs("data-1"))), 1),
        Arguments.of("a driver the CSINode does not list has no limit", Map.of(EBS, 2),
            List.of(attaching("p", new CsiVolume(EFS, "ns/shared"))), 1),
        Arguments.of("no CSINode limits, no limit", Map.of(), List.of(attaching("p", ebs("data-2"))), 1),
        Arguments.of("of two pods with a new volume each, one fits a limit of 3", Map.of(EBS, 3),
            List.of(attaching("p", ebs("data-2")), attaching("q", ebs("data-3"))), 1),
        Arguments.of("two pods sharing one new claim both fit a limit of 3", Map.of(EBS, 3),
            List.of(attaching("p", ebs("data-2")), attaching("q", ebs("data-2"))), 2),
        Arguments.of("a pod with two new volumes passes a limit of 3", Map.of(EBS, 3),
            List.of(attaching("p", ebs("data-2"), ebs("data-3"))), 0),
        Arguments.of("a pod without volumes is not limited", Map.of(EBS, 0), List.of(pod("p", 100, 128)), 1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void anExistingNodeTakesVolumesUpToItsCsiNodeLimit(String name, Map<String, Integer> limits, List<PodSpecView> pending,
      int onN1) {
    ProvisioningSnapshot s = withNodes(snapshot(pending, List.of(pool("default")), catalogue()), List.of(n1(limits)));
    ProvisioningPlan plan = new ProvisioningPlanner().plan(s, "b", ClaimNamer.standard());
    List<PodRef> onExisting = new ArrayList<>();
    plan.onExisting().forEach(e -> onExisting.addAll(e.pods()));
    assertEquals(onN1, onExisting.size(), plan.toString());
    assertEquals(pending.size() - onN1, plan.claims().stream().mapToInt(c -> c.pods().size()).sum(),
        "a new node has no CSINode yet, so no limit: " + plan);
    assertEquals(List.of(), plan.unschedulable(), plan.toString());
  }
}

package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static dev.farrier.planner.SchedulingFixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pods an earlier batch planned onto a claim still launching (nominated, not bound yet) count where the claim is when
 * the next batch is planned: for topology spread, pod anti-affinity and host ports, as the kube-scheduler will count
 * them once bound. Each case: the in-flight claim {@code c1} in us-east-1a with room to spare, with or without its
 * nominated pod, and whether the pending pod goes there.
 */
class NominatedPodsTest {
  private static final Resources ROOM = cpuMem(4000, 16, 110);

  private static ExistingNodeView inFlight(List<PodSpecView> nominated) {
    ExistingNodeView n = node("c1", "default", "us-east-1a", ROOM, List.of());
    return new ExistingNodeView(n.name(), n.nodePool(), n.labels(), List.of(WellKnown.UNREGISTERED_TAINT), ROOM, List.of(),
        Resources.of(500, 256 * MIB, 2), false, true, nominated, Map.of());
  }

  private static PodSpecView web(String name) {
    return labelled(pod(name, 100, 128), Map.of("app", "web"));
  }

  static Stream<Arguments> cases() {
    PodSpecView spreading = spread(web("web-new"), zoneSpread("web", 1));
    PodSpecView twoWeb = web("web-0");
    PodSpecView db = labelled(pod("db-0", 100, 128), Map.of("app", "db"));
    PodSpecView awayFromDb = affinity(pod("cache-0", 100, 128), required(WellKnown.HOSTNAME_LABEL, "db", true));
    HostPort metrics = new HostPort(null, null, 9100);
    return Stream.of(
        Arguments.of("zone spread: a nominated web pod makes us-east-1a the fuller zone", spreading, List.of(twoWeb), false),
        Arguments.of("zone spread: with nothing nominated the claim takes it", spreading, List.of(), true),
        Arguments.of("hostname anti-affinity: the nominated db pod repels it", awayFromDb, List.of(db), false),
        Arguments.of("hostname anti-affinity: nothing nominated, nothing repels", awayFromDb, List.of(), true),
        Arguments.of("host port: the nominated pod holds 9100", pod("agent-1", 100, 128).withHostPorts(List.of(metrics)),
            List.of(pod("agent-0", 100, 128).withHostPorts(List.of(metrics))), false),
        Arguments.of("a nominated pod that is in this batch again is not counted twice", spreading.withHostPorts(List.of()),
            List.of(web("web-new")), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void nominatedPodsCountWhereTheirClaimIs(String name, PodSpecView pending, List<PodSpecView> nominated, boolean onClaim) {
    ProvisioningSnapshot s = withNodes(snapshot(List.of(pending), List.of(pool("default")), catalogue()), List.of(inFlight(nominated)));
    ProvisioningPlan plan = new ProvisioningPlanner().plan(s, "b", ClaimNamer.standard());
    assertEquals(onClaim, !plan.onExisting().isEmpty(), plan.toString());
    assertEquals(onClaim ? 0 : 1, plan.claims().size(), plan.toString());
  }
}

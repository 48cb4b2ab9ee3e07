package dev.farrier.sandbox.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.WellKnown;
import dev.farrier.sandbox.chaos.Observation.Claim;
import dev.farrier.sandbox.chaos.Observation.CloudInstance;
import dev.farrier.sandbox.chaos.Observation.Pdb;
import dev.farrier.sandbox.chaos.Observation.PodChange;
import dev.farrier.sandbox.chaos.Observation.PodState;
import dev.farrier.sandbox.chaos.Observation.Replacement;
import dev.farrier.sandbox.chaos.Violation.Invariant;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 43's invariants 1 and 5 on sequences of pod changes: a PDB taken below its floor by an eviction or a plain
 * deletion on a live node, a protected pod evicted; and the near misses that are not violations (an involuntary
 * deletion, a node whose instance is gone, a pod that was not healthy, an interruption's eviction).
 */
class PodInvariantsTest {
  private static final String CLUSTER = "chaos";
  private static final Instant T0 = Instant.parse("2026-11-30T12:00:00Z");
  private static final Map<String, String> WEB = Map.of("app", "web");
  private static final Pdb MIN_TWO = new Pdb("default", "web", WEB, 2, null, 2);
  private static final Pdb MAX_ONE_OF_THREE = new Pdb("default", "web", WEB, null, 1, 3);

  private final InvariantMonitor monitor = new InvariantMonitor(CLUSTER, Set.of(), Duration.ofMinutes(5));

  @Test
  void aPlainDeletionOfAHealthyPodOnALiveNodeBelowMinAvailableIsAViolationNamingThePdb() {
    List<PodState> pods = List.of(web("web-1", "node-a"), web("web-2", "node-a"));
    assertEquals(List.of(), monitor.observe(at(0, pods, List.of(), List.of(MIN_TWO), live("a"))));
    var found = monitor.observe(at(1, pods.subList(1, 2), List.of(new PodChange(pods.getFirst(), true)), List.of(MIN_TWO), live("a")));
    assertEquals(1, found.size(), found.toString());
    assertEquals(Invariant.PDB_FLOOR, found.getFirst().invariant());
    assertEquals("default/web", found.getFirst().subject());
    assertTrue(found.getFirst().detail().contains("default/web-1") && found.getFirst().detail().contains("1 healthy, floor 2"), found.toString());
    assertEquals(1, monitor.checksByInvariant().get(Invariant.PDB_FLOOR));
  }

  @Test
  void aDeletionLearntOnlyFromAReListIsNotJudgedHowThePodLeftIsUnknown() {
    List<PodState> pods = List.of(web("web-1", "node-a"), web("web-2", "node-a"));
    monitor.observe(at(0, pods, List.of(), List.of(MIN_TWO), live("a")));
    assertEquals(List.of(), monitor.observe(at(1, pods.subList(1, 2), List.of(new PodChange(pods.getFirst(), true, true)), List.of(MIN_TWO),
        live("a"))));
    assertEquals(0, monitor.checksByInvariant().get(Invariant.PDB_FLOOR));
    assertEquals(1, monitor.unjudgedPodDeletions());
  }

  @Test
  void afterAGapTheBatchIsAlsoJudgedByThePodsAsItEndsForARelistComesInItsOwnOrder() {
    List<PodState> pods = List.of(web("web-1", "node-a"), web("web-2", "node-a"));
    PodState replacement = web("web-3", "node-a");
    var change = List.of(new PodChange(pods.getFirst(), true), new PodChange(replacement, false));
    monitor.observe(at(0, pods, List.of(), List.of(MIN_TWO), live("a")));
    assertEquals(List.of(), monitor.observe(at(10, List.of(pods.get(1), replacement), change, List.of(MIN_TWO), live("a"))),
        "ten seconds unread: the re-list's deletion came before the add of the pod that replaced it");
    var strict = new InvariantMonitor(CLUSTER, Set.of(), Duration.ofMinutes(5));
    strict.observe(at(0, pods, List.of(), List.of(MIN_TWO), live("a")));
    assertEquals(List.of(Invariant.PDB_FLOOR), strict.observe(at(1, List.of(pods.get(1), replacement), change, List.of(MIN_TWO), live("a")))
        .stream().map(Violation::invariant).toList(), "read a second later, the same order is a breach: the pod left first");
  }

  @Test
  void maxUnavailableGivesTheFloorExpectedPodsMinusItAndEachDisruptionIsJudgedOnceAtItsFirstChange() {
    List<PodState> pods = List.of(web("web-1", "node-a"), web("web-2", "node-a"), web("web-3", "node-a"));
    monitor.observe(at(0, pods, List.of(), List.of(MAX_ONE_OF_THREE), live("a")));
    PodState evicted = evicted(pods.get(0), PodState.EVICTION);
    PodState terminating = terminating(evicted);
    assertEquals(List.of(), monitor.observe(at(1, pods.subList(1, 3), List.of(new PodChange(evicted, false), new PodChange(terminating, false),
        new PodChange(terminating, true)), List.of(MAX_ONE_OF_THREE), live("a"))), "2 healthy of floor 2; the later changes are the same disruption");
    var found = monitor.observe(at(2, pods.subList(2, 3), List.of(new PodChange(terminating(pods.get(1)), false)), List.of(MAX_ONE_OF_THREE), live("a")));
    assertEquals(List.of(Invariant.PDB_FLOOR), found.stream().map(Violation::invariant).toList(), found.toString());
    assertEquals(2, monitor.checksByInvariant().get(Invariant.PDB_FLOOR));
  }

  @Test
  void involuntaryDeletionsAndPodsThatWereNotHealthyNeverCountAgainstTheFloor() {
    List<PodState> pods = List.of(web("web-1", "node-a"), web("web-2", "node-a"), unready(web("web-3", "node-a")));
    monitor.observe(at(0, pods, List.of(), List.of(MIN_TWO), live("a")));
    var gcd = new PodChange(evicted(pods.get(0), "DeletionByPodGC"), false);
    var tainted = new PodChange(evicted(pods.get(1), "DeletionByTaintManager"), false);
    var unhealthy = new PodChange(pods.get(2), true);
    assertEquals(List.of(), monitor.observe(at(1, List.of(), List.of(gcd, tainted, unhealthy), List.of(MIN_TWO), live("a"))));
  }

  @Test
  void aPlainDeletionOnANodeWhoseInstanceIsGoneOrBeingRepairedIsNotVoluntary() {
    List<PodState> pods = List.of(web("web-1", "node-a"), web("web-2", "node-a"));
    var goneMonitor = new InvariantMonitor(CLUSTER, Set.of(), Duration.ofMinutes(5));
    goneMonitor.observe(at(0, pods, List.of(), List.of(MIN_TWO), live("a")));
    var terminated = new Observation(T0.plusSeconds(1), List.of(instance("a", "shutting-down")), List.of(claim("a")), List.of(),
        List.of(), pods.subList(1, 2), List.of(new PodChange(pods.getFirst(), true)), List.of(MIN_TWO), List.of(), List.of());
    assertEquals(List.of(), goneMonitor.observe(terminated));

    monitor.observe(at(0, pods, List.of(), List.of(MIN_TWO), live("a")));
    var repaired = new Observation(T0.plusSeconds(1), List.of(instance("a", "running")), List.of(claim("a")), List.of(), List.of(),
        pods.subList(1, 2), List.of(new PodChange(pods.getFirst(), true)), List.of(MIN_TWO), List.of(replacement("a", "unhealthy")), List.of());
    assertEquals(List.of(), monitor.observe(repaired));
  }

  @Test
  void anEvictedDaemonSetPodThatToleratesDisruptedIsAViolationOneThatDoesNotIsNot() {
    var tolerating = new PodState("kube-system", "agent-x", "node-a", "Running", true, false, "DaemonSet", Map.of(), false, true, null);
    var plain = new PodState("kube-system", "logger-y", "node-a", "Running", true, false, "DaemonSet", Map.of(), false, false, null);
    monitor.observe(at(0, List.of(tolerating, plain), List.of(), List.of(), live("a")));
    var found = monitor.observe(at(1, List.of(), List.of(new PodChange(evicted(tolerating, PodState.EVICTION), false),
        new PodChange(evicted(plain, PodState.EVICTION), false)), List.of(), live("a")));
    assertEquals(List.of("kube-system/agent-x"), found.stream().map(Violation::subject).toList(), found.toString());
    assertEquals(Invariant.PROTECTED_POD, found.getFirst().invariant());
  }

  @Test
  void anEvictedDoNotDisruptPodIsAViolationUnlessItsNodeIsReplacedForAnInvoluntaryReason() {
    var keep = new PodState("default", "batch", "node-a", "Running", true, false, "Job", Map.of(), true, false, null);
    var eviction = List.of(new PodChange(evicted(keep, PodState.EVICTION), false));
    monitor.observe(at(0, List.of(keep), List.of(), List.of(), live("a")));
    var drifted = new Observation(T0.plusSeconds(1), List.of(instance("a", "running")), List.of(claim("a")), List.of(), List.of(),
        List.of(), eviction, List.of(), List.of(replacement("a", "drifted")), List.of());
    var found = monitor.observe(drifted);
    assertEquals(List.of(Invariant.PROTECTED_POD), found.stream().map(Violation::invariant).toList(), found.toString());

    var interrupted = new InvariantMonitor(CLUSTER, Set.of(), Duration.ofMinutes(5));
    interrupted.observe(at(0, List.of(keep), List.of(), List.of(), live("a")));
    assertEquals(List.of(), interrupted.observe(new Observation(T0.plusSeconds(1), List.of(instance("a", "running")), List.of(claim("a")),
        List.of(), List.of(), List.of(), eviction, List.of(), List.of(replacement("a", "SpotInterruption")), List.of())));
    var deleted = new InvariantMonitor(CLUSTER, Set.of(), Duration.ofMinutes(5));
    deleted.observe(at(0, List.of(keep), List.of(), List.of(), live("a")));
    assertEquals(List.of(), deleted.observe(at(1, List.of(), List.of(new PodChange(keep, true)), List.of(), live("a"))),
        "deleted, not evicted: a user's delete");
  }

  @Test
  void aPodFirstSeenAlreadyLeavingIsNotJudged() {
    var leaving = evicted(new PodState("default", "batch", "node-a", "Running", true, false, "Job", Map.of(), true, false, null), PodState.EVICTION);
    assertEquals(List.of(), monitor.observe(at(0, List.of(), List.of(new PodChange(leaving, false)), List.of(), live("a"))));
    assertEquals(0, monitor.checksByInvariant().get(Invariant.PROTECTED_POD));
  }

  static PodState web(String name, String node) {
    return new PodState("default", name, node, "Running", true, false, "ReplicaSet", Map.of("app", "web", "pod", name), false, false, null);
  }

  private static PodState evicted(PodState pod, String reason) {
    return new PodState(pod.namespace(), pod.name(), pod.node(), pod.phase(), pod.ready(), pod.terminating(), pod.ownerKind(),
        pod.labels(), pod.doNotDisrupt(), pod.toleratesDisrupted(), reason);
  }

  private static PodState terminating(PodState pod) {
    return new PodState(pod.namespace(), pod.name(), pod.node(), pod.phase(), pod.ready(), true, pod.ownerKind(),
        pod.labels(), pod.doNotDisrupt(), pod.toleratesDisrupted(), pod.disruptionTarget());
  }

  private static PodState unready(PodState pod) {
    return new PodState(pod.namespace(), pod.name(), pod.node(), pod.phase(), false, pod.terminating(), pod.ownerKind(),
        pod.labels(), pod.doNotDisrupt(), pod.toleratesDisrupted(), pod.disruptionTarget());
  }

  /** Node {@code node-<c>} of claim {@code <c>}, its instance in {@code state}. */
  static CloudInstance instance(String claim, String state) {
    return new CloudInstance("i-" + claim, state, Map.of(WellKnown.TAG_OWNER, "farrier", WellKnown.TAG_CLUSTER, CLUSTER,
        WellKnown.TAG_NODECLAIM, claim));
  }

  static Claim claim(String name) {
    return new Claim(name, false, "default", "node-" + name, "ami-1", true);
  }

  static Replacement replacement(String claim, String reason) {
    return new Replacement("disrupt/" + claim, "run-" + claim, claim, "node-" + claim, "default", reason);
  }

  private static List<String> live(String... claims) {
    return List.of(claims);
  }

  private static Observation at(int second, List<PodState> pods, List<PodChange> changes, List<Pdb> pdbs, List<String> liveClaims) {
    List<CloudInstance> instances = new ArrayList<>();
    liveClaims.forEach(c -> instances.add(instance(c, "running")));
    return new Observation(T0.plusSeconds(second), instances, liveClaims.stream().map(PodInvariantsTest::claim).toList(), List.of(),
        List.of(), pods, changes, pdbs, List.of(), List.of());
  }
}

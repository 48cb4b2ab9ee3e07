package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.model.DisruptionPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class DisruptionPlannerTest {
  private final DisruptionPlanner planner = new DisruptionPlanner();

  private static final List<ResolvedImages> IMAGES = List.of(
      new ResolvedImages("default", "amd64", List.of("ami-new")),
      new ResolvedImages("default", "arm64", List.of("ami-new-arm")));

  private DisruptionPlan plan(List<NodePoolView> pools, List<NodeClaimView> claims) {
    return new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, pools, claims, IMAGES));
  }

  private static CandidateDecision decision(DisruptionPlan plan, String claim) {
    return plan.decisions().stream().filter(d -> d.nodeClaim().equals(claim)).findFirst().orElseThrow();
  }

  // ---- drift ----

  static Stream<Arguments> driftCases() {
    NodeClaimView current = claim("a", "default");
    return Stream.of(
        Arguments.of("current", current, false, "not drifted: nodepool-hash matches, requirements not compared (labels unknown),"
            + " ec2nodeclass-hash not compared (missing), image ami-new is current for amd64; consolidateAfter Never: consolidation is off"),
        Arguments.of("old image", onImage(current, "ami-old"), true,
            "drifted: image ami-old is not among ami-new resolved for amd64"),
        Arguments.of("old hash", withHash(current, "hash-old"), true,
            "drifted: nodepool-hash hash-old differs from nodepool default's hash-default"),
        Arguments.of("both", withHash(onImage(current, "ami-old"), "hash-old"), true,
            "drifted: nodepool-hash hash-old differs from nodepool default's hash-default; image ami-old is not among ami-new"
                + " resolved for amd64"),
        Arguments.of("no hash annotation", withHash(current, null), false,
            "not drifted: nodepool-hash not compared (missing), requirements not compared (labels unknown), ec2nodeclass-hash not"
                + " compared (missing), image ami-new is current for amd64; consolidateAfter Never: consolidation is off"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("driftCases")
  void driftIsImageOrHash(String name, NodeClaimView claim, boolean disrupt, String reason) {
    DisruptionPlan plan = plan(List.of(pool("default")), List.of(claim));
    assertEquals(new CandidateDecision("a", "node-a", "default", disrupt, reason), plan.decisions().getFirst());
    assertEquals(disrupt ? 1 : 0, plan.commands().size());
  }

  @Test
  void noImagesResolvedForTheArchIsNotDrift() {
    NodeClaimView graviton = new NodeClaimView("g", "default", "default", "node-g", "i-g", "ami-x", "riscv64", "hash-default",
        "spot", "x.large", "us-east-1a", true, true, false, false, false, false, NOW - HOUR, null, null, null, PodsOnNode.NONE);
    DisruptionPlan plan = plan(List.of(pool("default")), List.of(graviton));
    assertFalse(plan.decisions().getFirst().disrupt());
    assertTrue(plan.decisions().getFirst().reason().contains("no images resolved for riscv64"));
  }

  @Test
  void commandCarriesWhatTheReplacementNeeds() {
    DisruptionCommand command = plan(List.of(pool("default")), List.of(onImage(claim("a", "default"), "ami-old")))
        .commands().getFirst();
    assertEquals(new DisruptionCommand("a", "node-a", "default", "i-a", DisruptionMethod.REPLACE, "drifted",
        "image ami-old is not among ami-new resolved for amd64", 2, 3600L, "m5.large", "on-demand"), command);
  }

  @Test
  void aNodePoolThatAsksForApprovalMarksItsCommands() {
    NodePoolView base = pool("default");
    NodePoolView approving = new NodePoolView(base.name(), base.weight(), base.requirements(), base.labels(), base.taints(),
        base.startupTaints(), base.nodeClassName(), base.limits(), base.usage(), base.hash(), base.budgets(),
        base.expireAfter(), base.terminationGracePeriodSeconds(), true, null);

    assertTrue(plan(List.of(approving), List.of(onImage(claim("a", "default"), "ami-old"))).commands().getFirst().approvalRequired());
    assertFalse(plan(List.of(base), List.of(onImage(claim("a", "default"), "ami-old"))).commands().getFirst().approvalRequired());
  }

  @Test
  void aNodeWithoutReschedulablePodsIsDeletedNotReplaced() {
    NodeClaimView onlyDaemons = withPods(onImage(claim("a", "default"), "ami-old"), new PodsOnNode(2, 0, List.of()));
    assertEquals(DisruptionMethod.DELETE, plan(List.of(pool("default")), List.of(onlyDaemons)).commands().getFirst().method());
  }

  // ---- skips ----

  static Stream<Arguments> skipCases() {
    NodeClaimView drifted = onImage(claim("a", "default"), "ami-old");
    return Stream.of(
        Arguments.of("not initialized", withFlags(drifted, false, false, false, false, false), "not initialized yet"),
        Arguments.of("already disrupting", withFlags(drifted, true, false, true, false, false),
            "already being disrupted (a replacement runs or just completed)"),
        Arguments.of("aborted", withFlags(drifted, true, false, false, true, false),
            "replacement aborted by an operator (farrier.dev/replacement-aborted); remove the annotation to allow"
                + " disruption again"),
        Arguments.of("do-not-disrupt node", withFlags(drifted, true, false, false, false, true),
            "drifted (image ami-old is not among ami-new resolved for amd64) but blocked by karpenter.sh/do-not-disrupt"
                + " on the node"),
        Arguments.of("do-not-disrupt pod", withPods(drifted, new PodsOnNode(3, 2, List.of("db/postgres-0"))),
            "drifted (image ami-old is not among ami-new resolved for amd64) but blocked by karpenter.sh/do-not-disrupt"
                + " on pod db/postgres-0"),
        Arguments.of("unknown pool", withHash(claim("a", "gone"), "x"), "nodepool gone not found"),
        Arguments.of("deleting while disrupting", withFlags(drifted, true, true, true, false, false),
            "being deleted; a disruption is already under way"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("skipCases")
  void skippedClaimsSayWhy(String name, NodeClaimView claim, String reason) {
    DisruptionPlan plan = plan(List.of(pool("default")), List.of(claim));
    assertEquals(List.of(), plan.commands());
    assertFalse(plan.decisions().getFirst().disrupt());
    assertEquals(reason, plan.decisions().getFirst().reason());
  }

  @Test
  void deletingClaimsAreDeletedWithoutBudget() {
    NodePoolView frozen = withBudgets(pool("default"), List.of(DisruptionBudget.of("0")));
    List<NodeClaimView> claims = List.of(withFlags(claim("a", "default"), true, true, false, false, true),
        withFlags(claim("b", "default"), false, true, false, true, false));
    DisruptionPlan plan = plan(List.of(frozen), claims);
    assertEquals(List.of("a", "b"), plan.commands().stream().map(DisruptionCommand::nodeClaim).toList());
    assertTrue(plan.commands().stream().allMatch(c -> c.method() == DisruptionMethod.DELETE && c.reason().equals("deleted")));
  }

  // ---- budgets ----

  @ParameterizedTest(name = "{0} of {1} nodes, {2} disrupting -> {3}")
  @CsvSource({
      "10%, 5, 0, 1",   // 0.5 rounds up
      "10%, 10, 0, 1",
      "10%, 11, 0, 2",  // 1.1 rounds up
      "10%, 11, 1, 1",
      "10%, 5, 1, 0",
      "50%, 3, 0, 2",
      "0%, 4, 0, 0",
      "3, 5, 0, 3",
      "3, 5, 2, 1",
      "0, 5, 0, 0",
      "100%, 4, 0, 4"})
  void budgetsRoundPercentagesUpAndCountNodesAlreadyDisrupting(String nodes, int size, int disrupting, int expected) {
    List<NodeClaimView> claims = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      NodeClaimView c = onImage(claim("n" + i, "default"), "ami-old");
      claims.add(i < disrupting ? withFlags(c, true, false, true, false, false) : c);
    }
    DisruptionPlan plan = plan(List.of(withBudgets(pool("default"), List.of(DisruptionBudget.of(nodes)))), claims);
    assertEquals(expected, plan.commands().size());
  }

  @Test
  void defaultBudgetIsTenPercentAndSaysSo() {
    List<NodeClaimView> claims = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      claims.add(withTimes(onImage(claim("n" + i, "default"), "ami-old"), NOW - (10 - i) * HOUR, null));
    }
    claims.set(4, withFlags(claims.get(4), true, false, true, false, false));
    DisruptionPlan plan = plan(List.of(pool("default")), claims);
    assertEquals(List.of(), plan.commands());
    assertEquals("drifted (image ami-old is not among ami-new resolved for amd64) but budget exhausted: default budget"
        + " 10% of 5 nodes allows 1, 1 already disrupting", decision(plan, "n0").reason());
  }

  @Test
  void theSmallestBudgetForTheReasonWinsAndOthersAreIgnored() {
    List<DisruptionBudget> budgets = List.of(DisruptionBudget.of("0", "Underutilized", "Empty"), DisruptionBudget.of("50%"),
        DisruptionBudget.of("2", "Drifted"));
    List<NodeClaimView> claims = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      claims.add(onImage(claim("n" + i, "default"), "ami-old"));
    }
    DisruptionPlan plan = plan(List.of(withBudgets(pool("default"), budgets)), claims);
    assertEquals(List.of("n0", "n1"), plan.commands().stream().map(DisruptionCommand::nodeClaim).toList());
    assertEquals("drifted (image ami-old is not among ami-new resolved for amd64) but budget exhausted: budget 2 allows 2,"
        + " 2 already disrupting", decision(plan, "n2").reason());
  }

  @Test
  void aScheduledBudgetLimitsOnlyWhileInForceAndTheDecisionSaysWhichWereNot() {
    // NOW is a fixed instant; one window covers it, the other does not: "nodes: 0" blocks only in its window.
    String hour = java.time.Instant.ofEpochMilli(NOW).atZone(java.time.ZoneOffset.UTC).getHour() + "";
    String otherHour = ((Integer.parseInt(hour) + 12) % 24) + "";
    List<NodeClaimView> claims = List.of(onImage(claim("a", "default"), "ami-old"), onImage(claim("b", "default"), "ami-old"));

    DisruptionPlan inWindow = plan(List.of(withBudgets(pool("default"), List.of(
        new DisruptionBudget("0", List.of(), "0 " + hour + " * * *", "1h"), DisruptionBudget.of("1")))), claims);
    assertEquals(0, inWindow.commands().size());
    assertEquals("drifted (image ami-old is not among ami-new resolved for amd64) but budget exhausted: budget 0 allows 0,"
        + " 0 already disrupting", decision(inWindow, "b").reason());

    DisruptionPlan outside = plan(List.of(withBudgets(pool("default"), List.of(
        new DisruptionBudget("0", List.of(), "0 " + otherHour + " * * *", "1h"), DisruptionBudget.of("1")))), claims);
    assertEquals(1, outside.commands().size(), "only the budget of 1 is in force");
    assertEquals("drifted (image ami-old is not among ami-new resolved for amd64) but budget exhausted: budget 1 allows 1,"
        + " 1 already disrupting (1 scheduled budget not in force now)", decision(outside, "b").reason());

    DisruptionPlan noneInForce = plan(List.of(withBudgets(pool("default"), List.of(
        new DisruptionBudget("0", List.of(), "0 " + otherHour + " * * *", "1h")))), claims);
    assertEquals(2, noneInForce.commands().size(), "no budget in force: none limits, as in Karpenter");
  }

  @Test
  void budgetsArePerNodePool() {
    NodePoolView a = withBudgets(pool("a"), List.of(DisruptionBudget.of("1")));
    NodePoolView b = withBudgets(pool("b"), List.of(DisruptionBudget.of("1")));
    List<NodeClaimView> claims = List.of(onImage(claim("a1", "a"), "ami-old"), onImage(claim("a2", "a"), "ami-old"),
        onImage(claim("b1", "b"), "ami-old"));
    DisruptionPlan plan = plan(List.of(a, b), claims);
    assertEquals(List.of("a1", "b1"), plan.commands().stream().map(DisruptionCommand::nodeClaim).sorted().toList());
  }

  @Test
  void oldestDriftedGoesFirstThenName() {
    List<NodeClaimView> claims = List.of(
        withTimes(onImage(claim("young", "default"), "ami-old"), NOW - HOUR, null),
        withTimes(onImage(claim("b-long-drifted", "default"), "ami-old"), NOW - 100 * HOUR, NOW - 50 * HOUR),
        withTimes(onImage(claim("a-long-drifted", "default"), "ami-old"), NOW - 90 * HOUR, NOW - 50 * HOUR),
        withTimes(onImage(claim("old", "default"), "ami-old"), NOW - 60 * HOUR, null));
    DisruptionPlan plan = plan(List.of(withBudgets(pool("default"), List.of(DisruptionBudget.of("3")))), claims);
    assertEquals(List.of("old", "a-long-drifted", "b-long-drifted"),
        plan.commands().stream().map(DisruptionCommand::nodeClaim).toList());
    assertEquals(List.of("a-long-drifted", "b-long-drifted", "old", "young"),
        plan.decisions().stream().map(CandidateDecision::nodeClaim).toList(), "one decision per claim, by name");
  }

  // ---- expiry ----

  @Test
  void expiredNodesAreDisruptedForcefully() {
    NodePoolView frozen = withBudgets(withExpireAfter(pool("default"), "24h"), List.of(DisruptionBudget.of("0")));
    NodeClaimView old = withFlags(withTimes(claim("old", "default"), NOW - 25 * HOUR, null), true, false, false, false, true);
    NodeClaimView fresh = withTimes(onImage(claim("fresh", "default"), "ami-old"), NOW - 2 * HOUR, null);

    DisruptionPlan plan = plan(List.of(frozen), List.of(old, fresh));

    assertEquals(List.of("old"), plan.commands().stream().map(DisruptionCommand::nodeClaim).toList());
    DisruptionCommand command = plan.commands().getFirst();
    assertEquals("expired", command.reason());
    assertEquals(DisruptionMethod.REPLACE, command.method());
    assertTrue(command.detail().startsWith("older than expireAfter 24h"), command.detail());
    assertFalse(decision(plan, "fresh").disrupt());
  }

  @Test
  void anExpireAfterOfCenturiesNeverWrapsIntoThePast() {
    // Read as the largest long of milliseconds: creation time plus that wraps negative; the age is compared, not the sum.
    NodePoolView pool = withExpireAfter(pool("default"), "3000000000000h");
    assertEquals(List.of(), plan(List.of(pool), List.of(claim("c1", "default"))).commands());
  }

  @Test
  void neverDoesNotExpireAndTheClaimsOwnExpireAfterWins() {
    NodeClaimView ancient = withTimes(claim("a", "default"), NOW - 10_000 * HOUR, null);
    assertEquals(List.of(), plan(List.of(withExpireAfter(pool("default"), "Never")), List.of(ancient)).commands());

    NodeClaimView ownExpiry = new NodeClaimView("b", "default", "default", "node-b", "i-b", "ami-new", "amd64",
        "hash-default", "spot", "m5.large", "us-east-1a", true, true, false, false, false, false, NOW - 2 * HOUR, null, "1h30m",
        null, PodsOnNode.NONE);
    DisruptionPlan plan = plan(List.of(withExpireAfter(pool("default"), "Never")), List.of(ownExpiry));
    assertEquals("expired", plan.commands().getFirst().reason());
    assertEquals(DisruptionMethod.DELETE, plan.commands().getFirst().method());
  }

  // ---- expiry modes: forceful (Karpenter v1, the default) and replace-first (farrier.dev/expiry) ----

  private static final String EXPIRED = "older than expireAfter 24h (created at 2027-01-14T07:00:00Z)";
  private static final String FORCEFUL = EXPIRED + "; forceful: not budget-limited and not held by do-not-disrupt,"
      + " drained at once while a replacement, if its pods need one, launches in parallel";
  private static final String REPLACE_FIRST = EXPIRED + "; replace-first (farrier.dev/expiry): within budgets, held by"
      + " do-not-disrupt, drained once its replacement is initialized";

  static Stream<Arguments> expiryCases() {
    NodeClaimView expired = withTimes(claim("old", "default"), NOW - 25 * HOUR, null);
    NodeClaimView nodeHeld = withFlags(expired, true, false, false, false, true);
    NodeClaimView podHeld = withPods(expired, new PodsOnNode(3, 2, List.of("db/postgres-0")));
    List<DisruptionBudget> none = List.of();
    List<DisruptionBudget> zero = List.of(DisruptionBudget.of("0"));
    List<DisruptionBudget> driftOnly = List.of(DisruptionBudget.of("0", "Drifted"));
    return Stream.of(
        Arguments.of("forceful past a zero budget and do-not-disrupt on the node", ExpiryMode.FORCEFUL, zero, nodeHeld,
            true, "expired: " + FORCEFUL),
        Arguments.of("forceful past do-not-disrupt on a pod", ExpiryMode.FORCEFUL, zero, podHeld, true,
            "expired: " + FORCEFUL),
        Arguments.of("replace-first within the default 10%", ExpiryMode.REPLACE_FIRST, none, expired, true,
            "expired: " + REPLACE_FIRST),
        Arguments.of("replace-first under Karpenter's default when budgets name only Drifted", ExpiryMode.REPLACE_FIRST,
            driftOnly, expired, true, "expired: " + REPLACE_FIRST),
        Arguments.of("replace-first held by a zero budget", ExpiryMode.REPLACE_FIRST, zero, expired, false,
            "expired (" + REPLACE_FIRST + ") but budget exhausted: budget 0 allows 0, 0 already disrupting"),
        Arguments.of("replace-first held by do-not-disrupt on the node", ExpiryMode.REPLACE_FIRST, none, nodeHeld, false,
            "expired (" + REPLACE_FIRST + ") but blocked by karpenter.sh/do-not-disrupt on the node"),
        Arguments.of("replace-first held by do-not-disrupt on a pod", ExpiryMode.REPLACE_FIRST, none, podHeld, false,
            "expired (" + REPLACE_FIRST + ") but blocked by karpenter.sh/do-not-disrupt on pod db/postgres-0"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expiryCases")
  void expiryIsForcefulUnlessTheNodePoolAsksForReplaceFirst(String name, ExpiryMode mode, List<DisruptionBudget> budgets,
      NodeClaimView claim, boolean disrupt, String reason) {
    NodePoolView pool = withExpiry(withBudgets(withExpireAfter(pool("default"), "24h"), budgets), mode);

    DisruptionPlan plan = plan(List.of(pool), List.of(claim));

    assertEquals(new CandidateDecision("old", "node-old", "default", disrupt, reason), decision(plan, "old"));
    assertEquals(disrupt ? List.of(mode == ExpiryMode.FORCEFUL) : List.of(),
        plan.commands().stream().map(DisruptionCommand::forceful).toList(), "only a forceful expiry drains at once");
  }

  @Test
  void forcefulExpiryTakesEveryExpiredNodeWhileReplaceFirstTakesTheBudgetOldestFirst() {
    List<NodeClaimView> claims = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      claims.add(withTimes(claim("c" + i, "default"), NOW - (30 - i) * HOUR, null));
    }
    NodePoolView forceful = withExpireAfter(pool("default"), "24h");

    assertEquals(5, plan(List.of(forceful), claims).commands().size(), "no budget holds a forceful expiry");
    DisruptionPlan replaceFirst = plan(List.of(withExpiry(forceful, ExpiryMode.REPLACE_FIRST)), claims);
    assertEquals(List.of("c0"), replaceFirst.commands().stream().map(DisruptionCommand::nodeClaim).toList(),
        "Karpenter's default 10% of 5 nodes is 1, the oldest");
    assertTrue(decision(replaceFirst, "c1").reason().endsWith("but budget exhausted: default budget 10% of 5 nodes"
        + " allows 1, 1 already disrupting"), decision(replaceFirst, "c1").reason());
  }

  @Test
  void aReplaceFirstExpiryIsHeldByAChangeFreezeAndAForcefulOneIsNot() {
    NodeClaimView expired = withTimes(claim("old", "default"), NOW - 25 * HOUR, null);
    NodePoolView pool = withExpireAfter(pool("default"), "24h");
    var frozen = java.util.Map.of("default", "frozen nodepool default by alice: incident");

    DisruptionPlan replaceFirst = planner.plan(new DisruptionSnapshot(NOW,
        List.of(withExpiry(pool, ExpiryMode.REPLACE_FIRST)), List.of(expired), IMAGES, frozen));
    DisruptionPlan forceful = planner.plan(new DisruptionSnapshot(NOW, List.of(pool), List.of(expired), IMAGES, frozen));

    assertEquals("expired (" + REPLACE_FIRST + ") but held: frozen nodepool default by alice: incident",
        decision(replaceFirst, "old").reason());
    assertEquals(List.of("old"), forceful.commands().stream().map(DisruptionCommand::nodeClaim).toList());
  }

  @Test
  void theExpiryAnnotationReadsReplaceFirstAndEverythingElseAsForceful() {
    assertEquals(ExpiryMode.REPLACE_FIRST, ExpiryMode.ofAnnotation("replace-first"));
    assertEquals(ExpiryMode.REPLACE_FIRST, ExpiryMode.ofAnnotation(" replace-first "));
    assertEquals(ExpiryMode.FORCEFUL, ExpiryMode.ofAnnotation(null));
    assertEquals(ExpiryMode.FORCEFUL, ExpiryMode.ofAnnotation("forceful"));
    assertEquals(ExpiryMode.FORCEFUL, ExpiryMode.ofAnnotation("gentle"));
  }
}

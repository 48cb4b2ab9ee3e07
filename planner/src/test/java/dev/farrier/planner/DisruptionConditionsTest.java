package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.model.WellKnown;
import dev.farrier.planner.ClaimConditions.StatusCondition;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DisruptionConditionsTest {
  private static final List<ResolvedImages> IMAGES = List.of(new ResolvedImages("default", "amd64", List.of("ami-new")));
  private static final List<String> BOTH = List.of(ClaimConditions.DRIFTED, ClaimConditions.EXPIRED, ClaimConditions.CONSOLIDATABLE);

  private static List<ClaimConditions> decide(List<NodePoolView> pools, List<NodeClaimView> claims, List<ResolvedImages> images) {
    return DisruptionConditions.of(new DisruptionSnapshot(NOW, pools, claims, images));
  }

  private static ClaimConditions only(NodeClaimView claim) {
    List<ClaimConditions> decided = decide(List.of(pool("default")), List.of(claim), IMAGES);
    assertEquals(1, decided.size(), decided.toString());
    return decided.getFirst();
  }

  @Test
  void aCurrentClaimIsNeitherDriftedNorExpired() {
    assertEquals(new ClaimConditions("a", List.of(), BOTH), only(claim("a", "default")));
  }

  @Test
  void anOldImageIsAmiDriftWithTheImagesInTheMessage() {
    assertEquals(new ClaimConditions("a", List.of(new StatusCondition("Drifted", "AMIDrift",
            "image ami-old is not among ami-new resolved for amd64")), List.of("Expired", "Consolidatable")),
        only(onImage(claim("a", "default"), "ami-old")));
  }

  @Test
  void anotherNodePoolHashIsNodePoolDrifted() {
    assertEquals(new ClaimConditions("a", List.of(new StatusCondition("Drifted", "NodePoolDrifted",
            "nodepool-hash hash-old differs from nodepool default's hash-default")), List.of("Expired", "Consolidatable")),
        only(withHash(claim("a", "default"), "hash-old")));
  }

  @Test
  void bothDriftsNameTheNodePoolFirstAndListBothInTheMessage() {
    var both = only(withHash(onImage(claim("a", "default"), "ami-old"), "hash-old")).set().getFirst();

    assertEquals("NodePoolDrifted", both.reason());
    assertEquals("nodepool-hash hash-old differs from nodepool default's hash-default; image ami-old is not among ami-new"
        + " resolved for amd64", both.message(), "in Karpenter's order of checks");
  }

  @Test
  void aDriftThatCannotBeCheckedLeavesTheConditionAsItIs() {
    var noImages = decide(List.of(pool("default")), List.of(onImage(claim("a", "default"), "ami-old")), List.of());

    assertEquals(List.of(new ClaimConditions("a", List.of(), List.of("Expired", "Consolidatable"))), noImages,
        "a node class resolving nothing neither sets nor removes Drifted");
    var hashDriftStillCounts = decide(List.of(pool("default")), List.of(withHash(claim("a", "default"), "hash-old")), List.of());
    assertEquals("NodePoolDrifted", hashDriftStillCounts.getFirst().set().getFirst().reason());
  }

  @Test
  void theNodeClassAndRequirementsDriftWithKarpentersReasons() {
    var nodeClass = new NodeClassView("default", "class-hash", "farrier-v1", List.of("subnet-b"), List.of("sg-a", "sg-b"));
    var labels = Map.of(WellKnown.INSTANCE_CATEGORY_LABEL, "r");
    var launchedWith = new LaunchedWith("class-hash", "farrier-v1", "subnet-a", List.of("sg-a", "sg-b"));
    var inSubnetA = claim("a", "default").withDriftFacts(labels, launchedWith, nodeClass);
    var narrowed = pool("default", 0, List.of(req(WellKnown.INSTANCE_CATEGORY_LABEL, "In", "c", "m")), List.of());

    assertEquals(new StatusCondition("Drifted", "SubnetDrift", "subnet subnet-a is not among subnet-b resolved for ec2nodeclass"
        + " default"), only(inSubnetA).set().getFirst());
    assertEquals("RequirementsDrifted", decide(List.of(narrowed), List.of(inSubnetA), IMAGES).getFirst().set().getFirst().reason(),
        "the NodePool's requirements come before the cloud provider's checks");
    var unresolved = claim("a", "default").withDriftFacts(labels, launchedWith,
        new NodeClassView("default", "class-hash", "farrier-v1", List.of(), List.of()));
    assertEquals(List.of("Expired", "Consolidatable"), only(unresolved).removed(),
        "a node class resolving no subnets or security groups neither sets nor removes Drifted");
  }

  @Test
  void anExpiredClaimIsExpiredWithItsExpireAfterInTheMessage() {
    var old = withTimes(claim("old", "default"), NOW - 721 * HOUR, null);

    assertEquals(new ClaimConditions("old", List.of(new StatusCondition("Expired", "Expired",
            "older than expireAfter 720h (created at 2026-12-16T07:00:00Z)")), List.of("Drifted", "Consolidatable")),
        only(old));
    assertEquals(BOTH, decide(List.of(withExpireAfter(pool("default"), "Never")), List.of(old), IMAGES).getFirst().removed(),
        "expireAfter Never takes Expired away again");
  }

  @Test
  void conditionsDoNotDependOnWhatThePlanDoesAboutThem() {
    var tainted = withFlags(onImage(claim("t", "default"), "ami-old"), true, false, true, false, false);
    var uninitialized = withFlags(onImage(claim("u", "default"), "ami-old"), false, false, false, false, false);
    var doNotDisrupt = withFlags(onImage(claim("d", "default"), "ami-old"), true, false, false, true, true);

    var decided = decide(List.of(withBudgets(pool("default"), List.of(DisruptionBudget.of("0")))),
        List.of(tainted, uninitialized, doNotDisrupt), IMAGES);

    assertEquals(List.of("AMIDrift", "AMIDrift", "AMIDrift"), decided.stream().map(c -> c.set().getFirst().reason()).toList());
  }

  @Test
  void aClaimNotLaunchedHasNeitherAndDeletingOrPoollessClaimsAreLeftAsTheyAre() {
    var launching = new NodeClaimView("l", "default", "default", null, null, null, "amd64", "hash-old", null, null, null,
        false, false, false, false, false, false, NOW - 1000 * HOUR, null, null, null, PodsOnNode.NONE);
    var deleting = withFlags(onImage(claim("x", "default"), "ami-old"), true, true, false, false, false);
    var orphan = onImage(claim("o", "gone"), "ami-old");

    assertEquals(List.of(new ClaimConditions("l", List.of(), BOTH)),
        decide(List.of(pool("default")), List.of(launching, deleting, orphan), IMAGES));
  }
}

package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.model.Requirement;
import dev.farrier.model.WellKnown;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Drift from every source, one row each, in Karpenter's order: the NodePool's static fields and requirements first,
 * then the cloud provider's node class hash, image, security groups and subnet. Anything that cannot be compared is
 * not drift; whether it could be compared decides if a Drifted condition is left as it is (not conclusive).
 */
class DriftCheckTest {
  private static final List<String> IMAGES = List.of("ami-new");
  private static final NodeClassView CLASS = new NodeClassView("default", "class-hash", "farrier-v1",
      List.of("subnet-a", "subnet-b"), List.of("sg-a"));
  private static final LaunchedWith LAUNCHED = new LaunchedWith("class-hash", "farrier-v1", "subnet-a", List.of("sg-a"));
  private static final Map<String, String> LABELS = Map.of(
      WellKnown.NODEPOOL_LABEL, "default",
      WellKnown.INSTANCE_TYPE_LABEL, "m5.large",
      WellKnown.INSTANCE_CATEGORY_LABEL, "m",
      WellKnown.CAPACITY_TYPE_LABEL, WellKnown.CAPACITY_ON_DEMAND,
      WellKnown.ZONE_LABEL, "us-east-1a",
      WellKnown.ARCH_LABEL, "amd64");

  private static NodePoolView poolWith(Requirement... requirements) {
    return pool("default", 0, List.of(requirements), List.of());
  }

  private static final NodePoolView POOL = poolWith(req(WellKnown.INSTANCE_CATEGORY_LABEL, "In", "c", "m", "r"),
      req(WellKnown.CAPACITY_TYPE_LABEL, "In", "on-demand", "spot"));

  private static NodeClaimView current() {
    return claim("a", "default").withDriftFacts(LABELS, LAUNCHED, CLASS);
  }

  private static NodeClaimView launched(LaunchedWith launchedWith) {
    return current().withDriftFacts(LABELS, launchedWith, CLASS);
  }

  private static NodeClaimView inClass(NodeClassView nodeClass) {
    return current().withDriftFacts(LABELS, LAUNCHED, nodeClass);
  }

  private static NodeClaimView labelled(String key, String value) {
    Map<String, String> labels = new TreeMap<>(LABELS);
    if (value == null) {
      labels.remove(key);
    } else {
      labels.put(key, value);
    }
    return current().withDriftFacts(labels, LAUNCHED, CLASS);
  }

  private static NodeClassView classWith(String hash, List<String> subnets, List<String> groups) {
    return new NodeClassView("default", hash, "farrier-v1", subnets, groups);
  }

  /** A claim on an old image whose NodePool hash, labels and launch are as given. */
  private static NodeClaimView drifting(String nodePoolHash, Map<String, String> labels, LaunchedWith launchedWith) {
    return onImage(withHash(claim("a", "default"), nodePoolHash), "ami-old").withDriftFacts(labels, launchedWith, CLASS);
  }

  private static final Map<String, String> NARROWED_OUT = Map.of(WellKnown.INSTANCE_CATEGORY_LABEL, "x");
  private static final LaunchedWith ELSEWHERE = new LaunchedWith("class-old", "farrier-v1", "subnet-z", List.of("sg-z"));

  static Stream<Arguments> rows() {
    return Stream.of(
        Arguments.of("current on every source", current(), POOL, null,
            "not drifted: nodepool-hash matches, requirements met, ec2nodeclass-hash matches, image ami-new is current for amd64,"
                + " security groups match, subnet subnet-a is resolved", true),
        // NodeClassDrift: the hash of the EC2NodeClass's spec, compared only at the same hash version.
        Arguments.of("another node class hash", launched(new LaunchedWith("class-old", "farrier-v1", "subnet-a", List.of("sg-a"))),
            POOL, "NodeClassDrift", "ec2nodeclass-hash class-old differs from ec2nodeclass default's class-hash", true),
        Arguments.of("another hash version is not compared",
            launched(new LaunchedWith("class-old", "farrier-v0", "subnet-a", List.of("sg-a"))), POOL, null,
            "ec2nodeclass-hash not compared (hash version farrier-v0, now farrier-v1)", true),
        Arguments.of("a claim launched before the hash was recorded",
            launched(new LaunchedWith(null, null, "subnet-a", List.of("sg-a"))), POOL, null,
            "ec2nodeclass-hash not compared (missing)", true),
        // SecurityGroupDrift: the instance's groups are not exactly the resolved ones (Karpenter compares the sets).
        Arguments.of("a security group no longer resolved", launched(new LaunchedWith("class-hash", "farrier-v1", "subnet-a",
            List.of("sg-old"))), POOL, "SecurityGroupDrift",
            "security groups sg-old differ from sg-a resolved for ec2nodeclass default", true),
        Arguments.of("a security group added to the class", inClass(classWith("class-hash", List.of("subnet-a"), List.of("sg-a", "sg-b"))),
            POOL, "SecurityGroupDrift", "security groups sg-a differ from sg-a, sg-b resolved for ec2nodeclass default", true),
        Arguments.of("no security groups resolved", inClass(classWith("class-hash", List.of("subnet-a"), List.of())), POOL, null,
            "no security groups resolved for ec2nodeclass default, security group drift not checked", false),
        // SubnetDrift: the instance's subnet is not among the resolved ones.
        Arguments.of("a subnet no longer resolved", inClass(classWith("class-hash", List.of("subnet-b"), List.of("sg-a"))), POOL,
            "SubnetDrift", "subnet subnet-a is not among subnet-b resolved for ec2nodeclass default", true),
        Arguments.of("no subnets resolved", inClass(classWith("class-hash", List.of(), List.of("sg-a"))), POOL, null,
            "no subnets resolved for ec2nodeclass default, subnet drift not checked", false),
        Arguments.of("a claim launched before its network was recorded", launched(new LaunchedWith("class-hash", "farrier-v1", null,
            List.of())), POOL, null, "security groups not compared (not recorded at launch)", true),
        Arguments.of("the node class unknown", inClass(null), POOL, null, "ec2nodeclass default unknown, its drift not checked", false),
        // RequirementsDrifted: the claim's labels no longer meet the NodePool's requirements.
        Arguments.of("an instance category removed", labelled(WellKnown.INSTANCE_CATEGORY_LABEL, "r"),
            poolWith(req(WellKnown.INSTANCE_CATEGORY_LABEL, "In", "c", "m")), "RequirementsDrifted",
            "label karpenter.k8s.aws/instance-category=r does not meet nodepool requirement karpenter.k8s.aws/instance-category In [c, m]",
            true),
        Arguments.of("a capacity type removed", labelled(WellKnown.CAPACITY_TYPE_LABEL, "spot"),
            poolWith(req(WellKnown.CAPACITY_TYPE_LABEL, "In", "on-demand")), "RequirementsDrifted",
            "label karpenter.sh/capacity-type=spot does not meet nodepool requirement karpenter.sh/capacity-type In [on-demand]", true),
        Arguments.of("a label the pool now requires", current(), poolWith(req("team", "In", "a")), "RequirementsDrifted",
            "label team absent, nodepool requirement team In [a]", true),
        Arguments.of("a value the pool now excludes", current(), poolWith(req(WellKnown.ZONE_LABEL, "NotIn", "us-east-1a")),
            "RequirementsDrifted", "label topology.kubernetes.io/zone=us-east-1a does not meet nodepool requirement"
                + " topology.kubernetes.io/zone NotIn [us-east-1a]", true),
        Arguments.of("an absent label meets NotIn", current(), poolWith(req("team", "NotIn", "a")), null, "requirements met", true),
        Arguments.of("a well-known label the claim does not carry is not compared", labelled(WellKnown.INSTANCE_CATEGORY_LABEL, null),
            POOL, null, "requirement on karpenter.k8s.aws/instance-category not compared (label not recorded on the claim)", true),
        Arguments.of("labels unknown", current().withDriftFacts(Map.of(), LAUNCHED, CLASS), poolWith(req("team", "In", "a")), null,
            "requirements not compared (labels unknown)", true),
        // Karpenter's order: NodePool static fields, requirements, then the node class hash, image, security groups, subnet.
        Arguments.of("every source at once names the NodePool", drifting("hash-old", NARROWED_OUT, ELSEWHERE), POOL,
            "NodePoolDrifted", "nodepool-hash hash-old differs from nodepool default's hash-default; label"
                + " karpenter.k8s.aws/instance-category=x does not meet nodepool requirement karpenter.k8s.aws/instance-category"
                + " In [c, m, r]; ec2nodeclass-hash class-old differs from ec2nodeclass default's class-hash; image ami-old is not"
                + " among ami-new resolved for amd64; security groups sg-z differ from sg-a resolved for ec2nodeclass default;"
                + " subnet subnet-z is not among subnet-a, subnet-b resolved for ec2nodeclass default", true),
        Arguments.of("requirements before the node class", drifting("hash-default", NARROWED_OUT, ELSEWHERE), POOL,
            "RequirementsDrifted", null, true),
        Arguments.of("the node class hash before the image", drifting("hash-default", LABELS, ELSEWHERE), POOL, "NodeClassDrift",
            null, true),
        Arguments.of("the image before the network", drifting("hash-default", LABELS,
            new LaunchedWith("class-hash", "farrier-v1", "subnet-z", List.of("sg-z"))), POOL, "AMIDrift", null, true),
        Arguments.of("security groups before the subnet", launched(new LaunchedWith("class-hash", "farrier-v1", "subnet-z",
            List.of("sg-z"))), POOL, "SecurityGroupDrift", null, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void drift(String row, NodeClaimView claim, NodePoolView pool, String reason, String detail, boolean conclusive) {
    var drift = DriftCheck.of(claim, pool, IMAGES);

    assertEquals(reason, drift.reason(), drift.detail());
    if (detail != null && reason != null) {
      assertEquals(detail, drift.detail());
    } else if (detail != null) {
      assertEquals(true, drift.detail().contains(detail), drift.detail());
    }
    assertEquals(conclusive, drift.conclusive(), drift.detail());
  }
}

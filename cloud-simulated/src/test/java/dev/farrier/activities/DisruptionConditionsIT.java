package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassHash;
import dev.farrier.activities.crd.EC2NodeClassSpec;
import dev.farrier.activities.crd.EC2NodeClassStatus;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.crd.NodePoolHash;
import dev.farrier.activities.crd.ResolvedAmi;
import dev.farrier.activities.crd.ResolvedSecurityGroup;
import dev.farrier.activities.crd.ResolvedSubnet;
import dev.farrier.activities.crd.SubnetSelectorTerm;
import dev.farrier.activities.disruption.DisruptionConditionWriter;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.activities.status.StatusRefresher;
import dev.farrier.localstack.LocalStack;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.model.CandidateDecision;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.ClaimConditions;
import dev.farrier.planner.ClaimConditions.StatusCondition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The planning activity keeps NodeClaims' Drifted and Expired conditions on the real kube-apiserver (simulated cloud,
 * EC2NodeClass resolved by the status loop), and {@code kubectl get nodeclaims} shows them.
 */
class DisruptionConditionsIT extends ClusterIT {
  private static final String CLUSTER = SimulatedActivities.CLUSTER;

  private SimulatedActivities activities;

  @BeforeEach
  void start(@TempDir Path cloudDir) {
    activities = new SimulatedActivities(client, cluster, cloudDir);
  }

  @AfterEach
  void stop() {
    activities.close();
  }

  /** A launched claim of the test's NodePool (with its current hash, so only the image can drift), amd64. */
  private String launchedClaim(String expireAfter) {
    var name = KubeTestSupport.unique(activities.nodePool);
    var hash = NodePoolHash.of(cluster.getNodePool(activities.nodePool).orElseThrow());
    activities.claims.createNodeClaim(new NodeClaimRequest(name, activities.nodePool, activities.nodeClass, List.of("m5.large"),
        List.of(Requirement.in(WellKnown.INSTANCE_TYPE_LABEL, List.of("m5.large")),
            Requirement.in(WellKnown.ARCH_LABEL, List.of("amd64"))),
        Resources.of(1000, 1L << 30, 1), Map.of(), List.of(), List.of(), hash, expireAfter, null, List.of()));
    activities.claims.launchInstance(new NodeClaimRef(CLUSTER, name));
    return name;
  }

  /** The planner leaves a claim alone until it is initialized: say it is, as the launch workflow would. */
  private String initialized(String name) {
    cluster.patchNodeClaimConditions(name, List.of(Condition.of(NodeClaimStatus.INITIALIZED, Condition.TRUE, "Initialized", "", Instant.now())),
        List.of());
    return name;
  }

  /** A planning round, and its conditions written (the writer writes them after the round returns). */
  private void plan() {
    activities.planning.planDisruption(new PlanDisruptionRequest(CLUSTER));
    activities.conditionsWritten();
  }

  private NodeClaim stored(String name) {
    return cluster.getNodeClaim(name).orElseThrow();
  }

  private Optional<Condition> condition(String claim, String type) {
    return Conditions.find(stored(claim).getStatus().conditions(), type);
  }

  @Test
  void aClaimOnAnImageItsClassNoLongerResolvesIsAmiDriftedOnceUntilItMatchesAgain(LocalStack stack) throws Exception {
    var name = launchedClaim("720h");
    var image = stored(name).getStatus().imageID();
    plan();
    assertEquals(Optional.empty(), condition(name, NodeClaimStatus.DRIFTED), "on the image its class resolves: not drifted");
    var resolved = cluster.getNodeClass(activities.nodeClass).orElseThrow().getStatus().amis();
    var newer = activities.cloud.ssmParameter("/aws/service/eks/optimized-ami/1.35/amazon-linux-2/recommended/image_id").orElseThrow();
    var upgraded = resolved.stream().map(a -> new ResolvedAmi(newer, a.name(), a.deprecated(), a.requirements())).toList();
    cluster.patchNodeClassStatus(activities.nodeClass, new EC2NodeClassStatus(upgraded, null, null, null, null));

    plan();

    var drifted = condition(name, NodeClaimStatus.DRIFTED).orElseThrow();
    assertEquals(List.of("True", "AMIDrift", "image " + image + " is not among " + newer + " resolved for amd64"),
        List.of(drifted.status(), drifted.reason(), drifted.message()));
    assertEquals(stored(name).getMetadata().getGeneration(), drifted.observedGeneration(), "computed against the claim's spec as it is");
    assertEquals(Optional.empty(), condition(name, NodeClaimStatus.EXPIRED));
    assertEquals("AMIDrift", kubectlGetNodeClaim(stack, name).get("DRIFTED"), "kubectl get nodeclaims says why");
    var written = stored(name);

    TimeUnit.MILLISECONDS.sleep(1100); // a rewrite would now carry another second
    plan();

    var again = stored(name);
    assertEquals(written.getMetadata().getResourceVersion(), again.getMetadata().getResourceVersion(), "nothing written");
    assertEquals(drifted.lastTransitionTime(), condition(name, NodeClaimStatus.DRIFTED).orElseThrow().lastTransitionTime());

    cluster.patchNodeClassStatus(activities.nodeClass, new EC2NodeClassStatus(resolved, null, null, null, null));
    plan();

    assertEquals(Optional.empty(), condition(name, NodeClaimStatus.DRIFTED), "removed once the image matches again");
    assertTrue(Conditions.isTrue(stored(name).getStatus().conditions(), NodeClaimStatus.LAUNCHED), "the others stay");
    assertEquals("", kubectlGetNodeClaim(stack, name).get("DRIFTED"));
    activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, name));
  }

  @Test
  void theLaunchRecordsTheNodeClassHashTheInstancesNetworkAndItsTypesLabels() {
    var name = launchedClaim("720h");

    var claim = stored(name);
    var nodeClass = cluster.getNodeClass(activities.nodeClass).orElseThrow();
    var annotations = claim.getMetadata().getAnnotations();
    assertEquals(List.of(EC2NodeClassHash.of(nodeClass), EC2NodeClassHash.VERSION),
        List.of(annotations.get(WellKnown.NODECLASS_HASH_ANNOTATION), annotations.get(WellKnown.NODECLASS_HASH_VERSION_ANNOTATION)));
    var subnet = annotations.get(WellKnown.SUBNET_ID_ANNOTATION);
    assertTrue(nodeClass.getStatus().subnets().stream().anyMatch(s -> s.id().equals(subnet)
        && s.zone().equals(claim.getMetadata().getLabels().get(WellKnown.ZONE_LABEL))), subnet + " is the class's subnet of its zone");
    assertEquals(nodeClass.getStatus().securityGroups().stream().map(ResolvedSecurityGroup::id).sorted().collect(Collectors.joining(",")),
        annotations.get(WellKnown.SECURITY_GROUP_IDS_ANNOTATION));
    assertEquals("m", claim.getMetadata().getLabels().get(WellKnown.INSTANCE_CATEGORY_LABEL), "the instance type's labels, as Karpenter's");
    plan();
    assertEquals(Optional.empty(), condition(name, NodeClaimStatus.DRIFTED), "launched as the class is: not drifted");
    activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, name));
  }

  @Test
  void aSubnetLeftOutOfTheSelectorTermsIsSubnetDriftOnceTheStatusLoopResolvesIt() {
    var name = launchedClaim("720h");
    var subnet = stored(name).getMetadata().getAnnotations().get(WellKnown.SUBNET_ID_ANNOTATION);
    var others = cluster.getNodeClass(activities.nodeClass).orElseThrow().getStatus().subnets().stream()
        .map(ResolvedSubnet::id).filter(id -> !id.equals(subnet)).toList();

    client.resources(EC2NodeClass.class).withName(activities.nodeClass).edit(c -> {
      var s = c.getSpec();
      c.setSpec(new EC2NodeClassSpec(s.amiFamily(), s.amiSelectorTerms(), others.stream().map(id -> new SubnetSelectorTerm(id, null)).toList(),
          s.securityGroupSelectorTerms(), s.role(), s.instanceProfile(), s.kubelet(), s.metadataOptions(), s.blockDeviceMappings(),
          s.instanceStorePolicy(), s.userData(), s.tags(), s.associatePublicIPAddress(), s.detailedMonitoring()));
      return c;
    });
    plan();
    assertEquals(Optional.empty(), condition(name, NodeClaimStatus.DRIFTED), "drift reads the resolved status, not the terms");
    new StatusRefresher(cluster, activities.cloud, CLUSTER, Clock.systemUTC()).refresh();
    plan();

    var drifted = condition(name, NodeClaimStatus.DRIFTED).orElseThrow();
    assertEquals(List.of("True", "SubnetDrift", "subnet " + subnet + " is not among " + String.join(", ", others)
        + " resolved for ec2nodeclass " + activities.nodeClass), List.of(drifted.status(), drifted.reason(), drifted.message()));
    activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, name));
  }

  @Test
  void aNodePoolNarrowedPastTheClaimsInstanceCategoryIsRequirementsDrifted() {
    var name = launchedClaim("720h");
    plan();
    assertEquals(Optional.empty(), condition(name, NodeClaimStatus.DRIFTED));
    String yaml = KubeTestSupport.nodePoolYaml(activities.nodePool, activities.nodeClass);
    String indent = yaml.lines().filter(l -> l.contains("- key: kubernetes.io/arch")).findFirst().orElseThrow().replaceAll("-.*", "");
    KubeTestSupport.apply(client, yaml + indent + "- key: karpenter.k8s.aws/instance-category\n" + indent + "  operator: In\n"
        + indent + "  values: [\"c\", \"r\"]\n");

    plan();

    var drifted = condition(name, NodeClaimStatus.DRIFTED).orElseThrow();
    assertEquals(List.of("True", "RequirementsDrifted", "label karpenter.k8s.aws/instance-category=m does not meet nodepool"
        + " requirement karpenter.k8s.aws/instance-category In [c, r]"), List.of(drifted.status(), drifted.reason(), drifted.message()));
    activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, name));
  }

  @Test
  void aClaimPastItsExpireAfterIsExpired(LocalStack stack) throws Exception {
    var name = launchedClaim("1s");

    KubeTestSupport.awaitTrue("Expired on " + name, () -> {
      plan();
      return condition(name, NodeClaimStatus.EXPIRED).isPresent();
    });

    var expired = condition(name, NodeClaimStatus.EXPIRED).orElseThrow();
    assertEquals(List.of("True", "Expired"), List.of(expired.status(), expired.reason()));
    assertTrue(expired.message().startsWith("older than expireAfter 1s (created at "), expired.message());
    assertEquals(Optional.empty(), condition(name, NodeClaimStatus.DRIFTED));
    var row = kubectlGetNodeClaim(stack, name);
    assertEquals(List.of("True", ""), List.of(row.get("EXPIRED"), row.get("DRIFTED")));
    activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, name));
  }

  @Test
  void aPreviewListsEveryDecisionAndWritesNothingWhileARoundWritesAndListsOnlyWhatItDisrupts() {
    var expired = initialized(launchedClaim("1s"));
    var kept = initialized(launchedClaim("720h"));
    // As expired, not merely as an empty node to consolidate (creation times are whole seconds: 1s may take up to 2).
    KubeTestSupport.awaitTrue("planned as expired: " + expired, () -> activities.planning.planDisruption(
        new PlanDisruptionRequest(CLUSTER, null, null, false, PlanDisruptionRequest.Purpose.PREVIEW)).commands().stream()
        .anyMatch(c -> c.nodeClaim().equals(expired) && c.reason().equals("expired")));
    var before = stored(expired).getMetadata().getResourceVersion();

    var preview = activities.planning.planDisruption(new PlanDisruptionRequest(CLUSTER, null, null, false,
        PlanDisruptionRequest.Purpose.PREVIEW));

    assertEquals(before, stored(expired).getMetadata().getResourceVersion(), "a preview writes no condition");
    assertEquals(Optional.empty(), condition(expired, NodeClaimStatus.EXPIRED));
    assertTrue(preview.decisions().stream().anyMatch(d -> d.nodeClaim().equals(kept) && !d.disrupt()), preview.decisions().toString());
    assertEquals(0, preview.omittedDecisions());

    var round = activities.planning.planDisruption(new PlanDisruptionRequest(CLUSTER, null, null, false,
        PlanDisruptionRequest.Purpose.ROUND));
    activities.conditionsWritten();

    assertTrue(condition(expired, NodeClaimStatus.EXPIRED).isPresent(), "a round writes the conditions");
    assertTrue(round.commands().stream().anyMatch(c -> c.nodeClaim().equals(expired)), round.commands().toString());
    assertTrue(round.decisions().stream().allMatch(CandidateDecision::disrupt), "only what it disrupts: " + round.decisions());
    assertEquals(preview.decisions().size() - round.decisions().size(), round.omittedDecisions());
    activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, expired));
    activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, kept));
  }

  @Test
  void aClaimFarrierDidNotLaunchIsNeverPlannedEvenWhenExpired() {
    var theirs = launchedClaim("1s");
    var ours = launchedClaim("1s");
    // As Karpenter's (or a hand-made) claim looks: no karpenter.sh/nodepool-hash-version: farrier-v1.
    client.resources(NodeClaim.class).withName(theirs).edit(c -> {
      c.getMetadata().getAnnotations().remove(WellKnown.NODEPOOL_HASH_VERSION_ANNOTATION);
      return c;
    });

    KubeTestSupport.awaitTrue("Expired on " + ours, () -> {
      plan();
      return condition(ours, NodeClaimStatus.EXPIRED).isPresent();
    });
    var plan = activities.planning.planDisruption(new PlanDisruptionRequest(CLUSTER));
    activities.conditionsWritten();

    assertEquals(Optional.empty(), condition(theirs, NodeClaimStatus.EXPIRED), "the planner never looked at it");
    assertTrue(plan.commands().stream().noneMatch(c -> c.nodeClaim().equals(theirs)), plan.commands().toString());
    var decision = plan.decisions().stream().filter(d -> d.nodeClaim().equals(theirs)).findFirst().orElseThrow();
    assertFalse(decision.disrupt());
    assertTrue(decision.reason().startsWith("not launched by Farrier"), decision.reason());
    activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, theirs));
    activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, ours));
  }

  @Test
  void aWriteThatFailsIsLoggedAndTheOtherClaimsAreStillWritten() {
    var gone = launchedClaim("720h");
    var kept = launchedClaim("720h");
    var listed = List.of(stored(gone), stored(kept));
    activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, gone));
    KubeTestSupport.awaitTrue("nodeclaim " + gone + " gone", () -> cluster.getNodeClaim(gone).isEmpty());
    var drift = List.of(new StatusCondition(ClaimConditions.DRIFTED, "AMIDrift", "image changed"));

    int written = new DisruptionConditionWriter(cluster, Clock.systemUTC()).write(listed,
        List.of(new ClaimConditions(gone, drift, List.of()), new ClaimConditions(kept, drift, List.of())));

    assertEquals(1, written);
    assertEquals("AMIDrift", condition(kept, NodeClaimStatus.DRIFTED).orElseThrow().reason());
    assertFalse(cluster.getNodeClaim(gone).isPresent());
    activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, kept));
  }

  /** {@code kubectl get nodeclaim <name>} (default columns) as header -> value, "" for an empty cell. */
  private static Map<String, String> kubectlGetNodeClaim(LocalStack stack, String name) throws IOException, InterruptedException {
    Process kubectl = new ProcessBuilder(stack.kubectl().toString(), "--kubeconfig", stack.kubeconfig().toString(),
        "get", "nodeclaim", name).redirectErrorStream(true).start();
    String out = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, kubectl.waitFor(), out);
    List<String> lines = out.lines().toList();
    assertEquals(2, lines.size(), out);
    // kubectl pads every column to its widest cell, so a cell starts where its header does (and may be empty).
    String header = lines.get(0);
    String values = lines.get(1);
    Matcher column = Pattern.compile("\\S+").matcher(header);
    List<int[]> spans = new ArrayList<>();
    while (column.find()) {
      spans.add(new int[] {column.start(), column.end()});
    }
    Map<String, String> row = new LinkedHashMap<>();
    for (int i = 0; i < spans.size(); i++) {
      int from = Math.min(spans.get(i)[0], values.length());
      int to = i + 1 < spans.size() ? Math.min(spans.get(i + 1)[0], values.length()) : values.length();
      row.put(header.substring(spans.get(i)[0], spans.get(i)[1]), values.substring(from, to).trim());
    }
    return row;
  }
}

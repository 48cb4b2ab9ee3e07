package dev.farrier.migrate;

import static dev.farrier.migrate.Migration.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.migrate.Finding.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The whole migration: bad input, what is left alone, stability, comments and order, pods, the seeds. */
class MigratorTest {
  static String resource(String name) {
    try (InputStream in = MigratorTest.class.getResourceAsStream("/seeds/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void notYamlNamesTheLine() {
    var e = assertThrows(MigrationException.class, () -> Migration.of("apiVersion: v1\nkind: [unclosed\n"));
    assertTrue(e.getMessage().startsWith("in0.yaml:3: not YAML"), e.getMessage());
  }

  @Test
  void aDocumentThatIsNoObjectIsRefused() {
    var e = assertThrows(MigrationException.class, () -> Migration.of("- a\n- b\n", "name: x\n"));
    assertEquals(List.of("in0.yaml:1: not a Kubernetes object (a YAML document that is not a map with apiVersion and kind)",
        "in1.yaml:1: not a Kubernetes object (no apiVersion or kind)"), e.problems());
  }

  @Test
  void unknownKarpenterKindsAndVersionsAreRefused() {
    var e = assertThrows(MigrationException.class, () -> Migration.of("""
        apiVersion: karpenter.sh/v1alpha5
        kind: Machine
        metadata: {name: m}
        ---
        apiVersion: karpenter.sh/v1alpha4
        kind: Provisioner
        metadata: {name: p}
        """));
    assertEquals(2, e.problems().size(), e.getMessage());
    assertTrue(e.problems().get(0).startsWith("in0.yaml:2: Machine/m: kind: karpenter.sh/v1alpha5 Machine is not a kind"), e.getMessage());
    assertTrue(e.problems().get(1).startsWith("in0.yaml:6: Provisioner/p: kind: karpenter.sh/v1alpha4 Provisioner"), e.getMessage());
  }

  @Test
  void everyProblemOfEveryInputIsNamedAtOnce() {
    var e = assertThrows(MigrationException.class, () -> Migration.of("- a\n", "x: [\n"));
    assertEquals(2, e.problems().size(), e.getMessage());
  }

  @Test
  void otherObjectsAndV1OnesAreLeftByteForByte() {
    String input = """
        # a v1 NodePool, with its own indentation
        apiVersion: karpenter.sh/v1
        kind: NodePool
        metadata: {name: done}
        spec:
          template:
            spec:
              requirements:
              - key: a
                operator: Exists
              nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: x}
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: c}
        """;
    var m = Migration.of(input);
    assertFalse(m.file().changed());
    assertEquals(input, m.file().text());
    assertTrue(m.file().findings().isEmpty());
    assertTrue(Report.render(m.file()).contains("Nothing to migrate"));
  }

  @Test
  void migratingTheOutputAgainChangesNothing() {
    for (String seed : List.of("seed-002-provisioner.yaml", "seed-003-v1beta1.yaml", "mixed.yaml")) {
      var once = Migration.of(new Migrator.Options("profile"), resource(seed));
      assertTrue(once.file().changed(), seed);
      var twice = Migration.of(new Migrator.Options("profile"), once.file().text());
      assertFalse(twice.file().changed(), seed);
      assertEquals(once.file().text(), twice.file().text(), seed);
    }
  }

  @Test
  void commentsAndKeyOrderSurvive() {
    var m = Migration.of(BetaNodePoolRulesTest.CLASS.replace("  role: node-role\n",
        "  # the nodes' IAM role\n  role: node-role # from terraform\n"));
    String text = m.file().text();
    assertTrue(text.contains("  # the nodes' IAM role\n  role: node-role # from terraform\n"), text);
    List<String> keys = text.lines().filter(l -> l.matches("  [a-zA-Z]+:.*")).map(l -> l.strip().split(":")[0]).toList();
    assertEquals(List.of("name", "amiFamily", "role", "subnetSelectorTerms", "securityGroupSelectorTerms", "amiSelectorTerms",
        "metadataOptions"), keys);
  }

  @Test
  void podsGetTheRenamedAnnotationsLabelAndAWordOnTheOldTaint() {
    var m = Migration.of("""
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        spec:
          template:
            metadata:
              annotations:
                karpenter.sh/do-not-evict: "true"
            spec:
              nodeSelector:
                karpenter.sh/provisioner-name: default
              affinity:
                nodeAffinity:
                  requiredDuringSchedulingIgnoredDuringExecution:
                    nodeSelectorTerms:
                      - matchExpressions:
                          - {key: karpenter.sh/provisioner-name, operator: In, values: [default]}
              tolerations:
                - {key: karpenter.sh/disruption, operator: Exists}
              containers: [{name: web, image: nginx}]
        ---
        apiVersion: batch/v1
        kind: CronJob
        metadata: {name: nightly}
        spec:
          schedule: "0 0 * * *"
          jobTemplate:
            spec:
              template:
                metadata:
                  annotations: {karpenter.sh/do-not-consolidate: "true", karpenter.sh/do-not-disrupt: "true"}
                spec:
                  containers: [{name: job, image: busybox}]
        """);
    var web = m.object("Deployment", "web");
    assertEquals(Map.of("karpenter.sh/do-not-disrupt", "true"), at(web, "spec.template.metadata.annotations"));
    assertEquals(Map.of("karpenter.sh/nodepool", "default"), at(web, "spec.template.spec.nodeSelector"));
    assertEquals("karpenter.sh/nodepool", at(web,
        "spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.0.matchExpressions.0.key"));
    m.finding(Kind.NEEDS_PERSON, "spec.template.spec.tolerations", "karpenter.sh/disrupted:NoSchedule");
    assertEquals(Map.of("karpenter.sh/do-not-disrupt", "true"), at(m.object("CronJob", "nightly"),
        "spec.jobTemplate.spec.template.metadata.annotations"));
  }

  /**
   * Seed 003's v1beta1 objects keep their behaviour. Its hand-made "after" differs: it changed clusterDNS to
   * 10.10.0.10 and dropped maxPods 234; here both move to the class unchanged.
   */
  @Test
  void seed003KeepsWhatTheBeforeManifestsDid() {
    var m = Migration.of(resource("seed-003-v1beta1.yaml"));
    var nodeClass = m.object("EC2NodeClass", "default");
    assertEquals(Map.of("clusterDNS", List.of("10.0.0.10"), "maxPods", 234), at(nodeClass, "spec.kubelet"));
    assertEquals(List.of(Map.of("alias", "al2023@latest")), at(nodeClass, "spec.amiSelectorTerms"));
    assertEquals(2, at(nodeClass, "spec.metadataOptions.httpPutResponseHopLimit"));
    var pool = m.object("NodePool", "default");
    assertEquals("1440h", at(pool, "spec.template.spec.expireAfter"));
    assertEquals("WhenEmptyOrUnderutilized", at(pool, "spec.disruption.consolidationPolicy"));
    assertEquals("0s", at(pool, "spec.disruption.consolidateAfter"));
    assertFalse(m.file().needsPerson());
  }

  @Test
  void seed002KeepsItsEmptyNodeTtlAndExpiry() {
    var m = Migration.of(new Migrator.Options("KarpenterNodeInstanceProfile-karpenter-demo"), resource("seed-002-provisioner.yaml"));
    var pool = m.object("NodePool", "default");
    assertEquals("WhenEmpty", at(pool, "spec.disruption.consolidationPolicy"));
    assertEquals("30s", at(pool, "spec.disruption.consolidateAfter"));
    assertEquals("30m", at(pool, "spec.template.spec.expireAfter"));
    assertEquals(Map.of("cpu", 1000), at(pool, "spec.limits"));
    assertEquals("KarpenterNodeInstanceProfile-karpenter-demo", at(m.object("EC2NodeClass", "default"), "spec.instanceProfile"));
    assertFalse(m.file().needsPerson());
    assertTrue(Report.render(m.file()).contains("Everything was migrated; nothing needs a person."));
  }

  @Test
  void aKeyTwiceInOneMapIsRefused() {
    var e = assertThrows(MigrationException.class, () -> Migration.of("""
        apiVersion: karpenter.sh/v1alpha5
        kind: Provisioner
        metadata: {name: p}
        spec:
          ttlSecondsAfterEmpty: 30
          ttlSecondsAfterEmpty: 60
        """));
    assertEquals(List.of("in0.yaml:6: the key ttlSecondsAfterEmpty appears twice in one map (kubectl would keep one of "
        + "them, unsaid): keep the one meant"), e.problems());
  }

  @Test
  void aListFromKubectlGetIsMigratedItemByItemWithoutWhatTheServerSet() {
    var m = Migration.of("""
        apiVersion: v1
        kind: List
        items:
          - apiVersion: karpenter.k8s.aws/v1beta1
            kind: EC2NodeClass
            metadata:
              name: listed
              resourceVersion: "4711"
              uid: 0b8e6a4c-0000-0000-0000-000000000000
              creationTimestamp: "2024-08-16T10:00:00Z"
              generation: 3
              annotations:
                kubectl.kubernetes.io/last-applied-configuration: '{}'
            spec:
              amiFamily: AL2023
              role: r
              subnetSelectorTerms: [{tags: {a: b}}]
              securityGroupSelectorTerms: [{tags: {a: b}}]
            status: {subnets: []}
        """);
    var c = m.object("EC2NodeClass", "listed");
    assertEquals(java.util.Map.of("name", "listed"), c.get("metadata"));
    assertEquals(null, c.get("status"));
    assertEquals(1, m.objects().size());
    m.finding(Kind.CHANGED, "items", "documents of their own");
  }

  @Test
  void aListOfOtherKindsIsLeftAlone() {
    String input = "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}\n";
    assertEquals(input, Migration.of(input).file().text());
  }

  @Test
  void aSelectorNamingBothLabelsKeepsOnlyTheNewOne() {
    var m = Migration.of("""
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          nodeSelector: {karpenter.sh/provisioner-name: a, karpenter.sh/nodepool: a}
          containers: [{name: c, image: busybox}]
        """);
    assertEquals(Map.of("karpenter.sh/nodepool", "a"), at(m.object("Pod", "p"), "spec.nodeSelector"));
  }
}

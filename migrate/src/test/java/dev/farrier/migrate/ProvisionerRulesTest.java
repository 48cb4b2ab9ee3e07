package dev.farrier.migrate;

import static dev.farrier.migrate.Migration.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.migrate.Finding.Kind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** v1alpha5 Provisioners (with AWSNodeTemplates or inline providers) to v1 NodePools: one test per rule. */
class ProvisionerRulesTest {
  private static String provisioner(String spec) {
    return """
        apiVersion: karpenter.sh/v1alpha5
        kind: Provisioner
        metadata:
          name: web
        spec:
          providerRef:
            name: web-template
        """ + spec.indent(2);
  }

  private static final String TEMPLATE = """
      apiVersion: karpenter.k8s.aws/v1alpha1
      kind: AWSNodeTemplate
      metadata:
        name: web-template
      spec:
        instanceProfile: node-profile
        subnetSelector:
          karpenter.sh/discovery: demo
        securityGroupSelector:
          karpenter.sh/discovery: demo
      """;

  private static Map<String, Object> pool(Migration m) {
    return m.object("NodePool", "web");
  }

  @Test
  void fieldsMoveIntoTheTemplateAndLimitsFlatten() {
    var m = Migration.of(provisioner("""
        labels: {team: web}
        annotations: {note: kept}
        taints: [{key: dedicated, value: web, effect: NoSchedule}]
        startupTaints: [{key: init, effect: NoSchedule}]
        limits:
          resources: {cpu: "100", memory: 400Gi}
        weight: 30
        requirements:
          - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}
        """), TEMPLATE);
    var pool = pool(m);
    assertEquals("karpenter.sh/v1", pool.get("apiVersion"));
    assertEquals(Map.of("team", "web"), at(pool, "spec.template.metadata.labels"));
    assertEquals(Map.of("note", "kept"), at(pool, "spec.template.metadata.annotations"));
    assertEquals("dedicated", at(pool, "spec.template.spec.taints.0.key"));
    assertEquals("init", at(pool, "spec.template.spec.startupTaints.0.key"));
    assertEquals(Map.of("cpu", "100", "memory", "400Gi"), at(pool, "spec.limits"));
    assertEquals(30, at(pool, "spec.weight"));
    assertEquals(Map.of("group", "karpenter.k8s.aws", "kind", "EC2NodeClass", "name", "web-template"),
        at(pool, "spec.template.spec.nodeClassRef"));
    assertNull(at(pool, "spec.providerRef"));
    m.finding(Kind.CHANGED, "spec.limits.resources", "became spec.limits");
    m.finding(Kind.CHANGED, "spec.providerRef", "EC2NodeClass");
  }

  @Test
  void ttlSecondsAfterEmptyBecomesWhenEmptyWithItsDuration() {
    var pool = pool(Migration.of(provisioner("ttlSecondsAfterEmpty: 30"), TEMPLATE));
    assertEquals("WhenEmpty", at(pool, "spec.disruption.consolidationPolicy"));
    assertEquals("30s", at(pool, "spec.disruption.consolidateAfter"));
  }

  @Test
  void consolidationEnabledBecomesWhenEmptyOrUnderutilizedAtOnce() {
    var pool = pool(Migration.of(provisioner("consolidation: {enabled: true}"), TEMPLATE));
    assertEquals("WhenEmptyOrUnderutilized", at(pool, "spec.disruption.consolidationPolicy"));
    assertEquals("0s", at(pool, "spec.disruption.consolidateAfter"));
  }

  @Test
  void neitherKeepsNodesFromBeingConsolidatedWhichV1WouldDoByDefault() {
    for (String spec : List.of("weight: 1", "consolidation: {enabled: false}")) {
      var m = Migration.of(provisioner(spec), TEMPLATE);
      assertEquals("WhenEmpty", at(pool(m), "spec.disruption.consolidationPolicy"), spec);
      assertEquals("Never", at(pool(m), "spec.disruption.consolidateAfter"), spec);
      m.finding(Kind.KEPT_DEFAULT, "spec.consolidation", "consolidates both by default");
    }
  }

  @Test
  void bothTtlAndConsolidationIsRefusedWithBothLines() {
    var e = assertThrows(MigrationException.class, () -> Migration.of(provisioner("""
        ttlSecondsAfterEmpty: 30
        consolidation: {enabled: true}
        """), TEMPLATE));
    assertEquals(List.of("in0.yaml:8: Provisioner/web: spec.ttlSecondsAfterEmpty: cannot be set with consolidation.enabled "
        + "(line 9); v1alpha5 refused both, keep one"), e.problems());
  }

  @Test
  void ttlSecondsUntilExpiredBecomesExpireAfterInTheLargestWholeUnit() {
    assertEquals("720h", at(pool(Migration.of(provisioner("ttlSecondsUntilExpired: 2592000"), TEMPLATE)), "spec.template.spec.expireAfter"));
    assertEquals("30m", at(pool(Migration.of(provisioner("ttlSecondsUntilExpired: 1800"), TEMPLATE)), "spec.template.spec.expireAfter"));
    assertEquals("90s", at(pool(Migration.of(provisioner("ttlSecondsUntilExpired: 90"), TEMPLATE)), "spec.template.spec.expireAfter"));
  }

  @Test
  void noExpiryStaysNoExpiryWhichV1WouldSetTo720h() {
    var m = Migration.of(provisioner("weight: 1"), TEMPLATE);
    assertEquals("Never", at(pool(m), "spec.template.spec.expireAfter"));
    m.finding(Kind.KEPT_DEFAULT, "spec.ttlSecondsUntilExpired", "720h");
  }

  @Test
  void theDefaultingWebhooksRequirementsAreWrittenOut() {
    var m = Migration.of(provisioner("weight: 1"), TEMPLATE);
    @SuppressWarnings("unchecked")
    var requirements = (List<Map<String, Object>>) at(pool(m), "spec.template.spec.requirements");
    assertEquals(List.of(
        Map.of("key", "kubernetes.io/os", "operator", "In", "values", List.of("linux")),
        Map.of("key", "kubernetes.io/arch", "operator", "In", "values", List.of("amd64")),
        Map.of("key", "karpenter.sh/capacity-type", "operator", "In", "values", List.of("on-demand")),
        Map.of("key", "karpenter.k8s.aws/instance-category", "operator", "In", "values", List.of("c", "m", "r")),
        Map.of("key", "karpenter.k8s.aws/instance-generation", "operator", "Gt", "values", List.of("2"))), requirements);
    m.finding(Kind.KEPT_DEFAULT, "spec.requirements", "v1alpha5 added requirements");
  }

  @Test
  void statedRequirementsAndLabelsKeepTheWebhookFromAddingItsOwn() {
    var m = Migration.of(provisioner("""
        labels: {kubernetes.io/arch: arm64}
        requirements:
          - {key: kubernetes.io/os, operator: In, values: [linux]}
          - {key: karpenter.sh/capacity-type, operator: In, values: [spot]}
          - {key: karpenter.k8s.aws/instance-family, operator: In, values: [m6g]}
        """), TEMPLATE);
    @SuppressWarnings("unchecked")
    var requirements = (List<Map<String, Object>>) at(pool(m), "spec.template.spec.requirements");
    assertEquals(3, requirements.size(), requirements.toString());
    m.noFinding("spec.requirements.defaults");
    assertTrue(m.findings(Kind.KEPT_DEFAULT).stream().noneMatch(f -> f.field().equals("spec.requirements")));
  }

  @Test
  void kubeletConfigurationMovesToTheClassWithoutContainerRuntime() {
    var m = Migration.of(provisioner("""
        kubeletConfiguration:
          containerRuntime: dockerd
          maxPods: 58
        """), TEMPLATE);
    assertEquals(Map.of("maxPods", 58), at(m.object("EC2NodeClass", "web-template"), "spec.kubelet"));
    assertNull(at(pool(m), "spec.template.spec.kubelet"));
    m.finding(Kind.CHANGED, "spec.kubeletConfiguration.containerRuntime", "containerd");
    m.finding(Kind.CHANGED, "spec.kubeletConfiguration", "moved to EC2NodeClass web-template");
  }

  @Test
  void anInlineProviderBecomesAClassNamedAfterTheProvisionerWrittenBeforeIt() {
    var m = Migration.of("""
        apiVersion: karpenter.sh/v1alpha5
        kind: Provisioner
        metadata:
          name: default
        spec:
          provider:
            apiVersion: extensions.karpenter.sh/v1alpha1
            kind: AWS
            instanceProfile: KarpenterNodeInstanceProfile-demo
            subnetSelector:
              kubernetes.io/cluster/demo: '*'
            securityGroupSelector:
              kubernetes.io/cluster/demo: '*'
            tags: {team: a}
        """);
    var objects = m.objects();
    assertEquals(List.of("EC2NodeClass", "NodePool"), objects.stream().map(o -> o.get("kind")).toList());
    var nodeClass = objects.getFirst();
    assertEquals("default", at(nodeClass, "metadata.name"));
    assertEquals("KarpenterNodeInstanceProfile-demo", at(nodeClass, "spec.instanceProfile"));
    assertEquals(Map.of("kubernetes.io/cluster/demo", "*"), at(nodeClass, "spec.subnetSelectorTerms.0.tags"));
    assertNull(at(nodeClass, "spec.apiVersion"));
    assertEquals("default", at(objects.get(1), "spec.template.spec.nodeClassRef.name"));
  }

  @Test
  void providerAndProviderRefTogetherAreRefused() {
    var e = assertThrows(MigrationException.class, () -> Migration.of(provisioner("provider: {instanceProfile: x}")));
    assertTrue(e.getMessage().startsWith("in0.yaml:8: Provisioner/web: spec.provider: a Provisioner takes provider or providerRef (line 6)"),
        e.getMessage());
  }

  @Test
  void neitherProviderNorProviderRefIsRefused() {
    var e = assertThrows(MigrationException.class, () -> Migration.of("""
        apiVersion: karpenter.sh/v1alpha5
        kind: Provisioner
        metadata: {name: bare}
        spec:
          weight: 1
        """));
    assertTrue(e.getMessage().contains("Provisioner/bare: spec.providerRef: a Provisioner needs provider or providerRef"), e.getMessage());
  }

  @Test
  void aFieldThatNeverExistedIsNamedWithItsLine() {
    var e = assertThrows(MigrationException.class, () -> Migration.of(provisioner("ttlSecondsAfterIdle: 30"), TEMPLATE));
    assertTrue(e.getMessage().startsWith("in0.yaml:8: Provisioner/web: spec.ttlSecondsAfterIdle: no such field in "
        + "karpenter.sh/v1alpha5 Provisioner"), e.getMessage());
  }

  @Test
  void doNotConsolidateOnTheNodesBecomesDoNotDisrupt() {
    var m = Migration.of(provisioner("annotations: {karpenter.sh/do-not-consolidate: \"true\"}"), TEMPLATE);
    @SuppressWarnings("unchecked")
    var annotations = (Map<String, Object>) at(pool(m), "spec.template.metadata.annotations");
    assertEquals(Map.of("karpenter.sh/do-not-disrupt", "true"), annotations);
  }

  @Test
  void aKubeletForAClassNotInTheInputNeedsAPerson() {
    var m = Migration.of(provisioner("kubeletConfiguration: {maxPods: 20}"));
    var f = m.finding(Kind.NEEDS_PERSON, "spec.kubeletConfiguration", "web-template is not in the input");
    assertEquals(8, f.line());
    assertTrue(f.message().contains("{maxPods: 20}"), f.message());
    assertTrue(m.file().needsPerson());
    assertFalse(m.file().text().contains("maxPods"));
  }

  @Test
  void anInlineProvidersClassTakesTheKubeletAndClashesWithAClassOfItsName() {
    String inline = """
        apiVersion: karpenter.sh/v1alpha5
        kind: Provisioner
        metadata: {name: web-template}
        spec:
          kubeletConfiguration: {maxPods: 30}
          provider:
            instanceProfile: p
            subnetSelector: {a: b}
            securityGroupSelector: {a: b}
        """;
    assertEquals(Map.of("maxPods", 30), at(Migration.of(inline).object("EC2NodeClass", "web-template"), "spec.kubelet"));
    var e = assertThrows(MigrationException.class, () -> Migration.of(TEMPLATE, inline));
    assertTrue(e.getMessage().contains("a second EC2NodeClass named web-template (the first: in0.yaml:1 AWSNodeTemplate/web-template)"),
        e.getMessage());
  }

  @Test
  void secondsThatAreNoWholeNumberAreRefused() {
    for (String bad : List.of("ttlSecondsAfterEmpty: soon", "ttlSecondsUntilExpired: -5")) {
      var e = assertThrows(MigrationException.class, () -> Migration.of(provisioner(bad), TEMPLATE), bad);
      assertTrue(e.getMessage().contains("Provisioner/web: spec." + bad.substring(0, bad.indexOf(':'))), e.getMessage());
    }
  }

  @Test
  void consolidationEnabledReadsAsKubernetesReadsABoolean() {
    for (String yes : List.of("True", "yes", "on")) {
      assertEquals("WhenEmptyOrUnderutilized", at(pool(Migration.of(provisioner("consolidation: {enabled: " + yes + "}"), TEMPLATE)),
          "spec.disruption.consolidationPolicy"), yes);
    }
    var e = assertThrows(MigrationException.class, () -> Migration.of(provisioner("consolidation: {enabled: sometimes}"), TEMPLATE));
    assertTrue(e.getMessage().contains("spec.consolidation.enabled: expected true or false, got sometimes"), e.getMessage());
  }

  @Test
  void requirementsThatAreNoListAndWeightsV1RefusesAreRefused() {
    var notAList = assertThrows(MigrationException.class, () -> Migration.of(provisioner("requirements: {key: a}"), TEMPLATE));
    assertTrue(notAList.getMessage().contains("spec.requirements: expected a list of requirements"), notAList.getMessage());
    for (String weight : List.of("0", "101", "\"10\"", "high")) {
      var e = assertThrows(MigrationException.class, () -> Migration.of(provisioner("weight: " + weight), TEMPLATE), weight);
      assertTrue(e.getMessage().contains("spec.weight: expected a whole number from 1 to 100"), e.getMessage());
    }
  }

  @Test
  void expiringNodesKeepTheirReplaceFirstExpiryAndNeverExpiringOnesNeedNoAnnotation() {
    var expiring = Migration.of(provisioner("ttlSecondsUntilExpired: 3600"), TEMPLATE);
    assertEquals(Map.of("farrier.dev/expiry", "replace-first"), at(pool(expiring), "metadata.annotations"));
    expiring.finding(Kind.KEPT_DEFAULT, "spec.ttlSecondsUntilExpired", "v1 expiry is forceful");
    assertNull(at(pool(Migration.of(provisioner("weight: 1"), TEMPLATE)), "metadata.annotations"));
  }

  @Test
  void v1alpha5TellsOfDriftAndBudgets() {
    var m = Migration.of(provisioner("weight: 1"), TEMPLATE);
    m.finding(Kind.NEW_BEHAVIOUR, "spec", "drift is always on");
    m.finding(Kind.NEW_BEHAVIOUR, "spec", "at most 10%");
  }
}

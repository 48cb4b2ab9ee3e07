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

/** v1beta1 NodePools to v1, and the kubelet settings they leave to their EC2NodeClass. */
class BetaNodePoolRulesTest {
  static String pool(String name, String nodeClass, String templateSpec, String spec) {
    return """
        apiVersion: karpenter.sh/v1beta1
        kind: NodePool
        metadata:
          name: %s
        spec:
          template:
            spec:
              nodeClassRef:
                apiVersion: karpenter.k8s.aws/v1beta1
                kind: EC2NodeClass
                name: %s
        %s%s""".formatted(name, nodeClass, templateSpec.indent(6), spec.indent(2));
  }

  static final String CLASS = """
      apiVersion: karpenter.k8s.aws/v1beta1
      kind: EC2NodeClass
      metadata:
        name: shared
      spec:
        amiFamily: AL2023
        role: node-role
        subnetSelectorTerms: [{tags: {a: b}}]
        securityGroupSelectorTerms: [{tags: {a: b}}]
      """;

  /** A v1 NodePool on the class {@code shared}. */
  private static final String V1_POOL = """
      apiVersion: karpenter.sh/v1
      kind: NodePool
      metadata: {name: old}
      spec:
        template:
          spec:
            nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: shared}
      """;

  @Test
  void nodeClassRefTakesGroupForApiVersion() {
    var m = Migration.of(pool("a", "shared", "", ""), CLASS);
    assertEquals(Map.of("group", "karpenter.k8s.aws", "kind", "EC2NodeClass", "name", "shared"),
        at(m.object("NodePool", "a"), "spec.template.spec.nodeClassRef"));
    assertEquals("karpenter.sh/v1", m.object("NodePool", "a").get("apiVersion"));
  }

  @Test
  void aRefToAnotherGroupIsRefused() {
    var e = assertThrows(MigrationException.class, () -> Migration.of(pool("a", "shared", "", "")
        .replace("karpenter.k8s.aws/v1beta1", "example.com/v1")));
    assertTrue(e.getMessage().contains("Farrier launches nodes from a karpenter.k8s.aws EC2NodeClass"), e.getMessage());
  }

  @Test
  void whenUnderutilizedIsRenamedAndActsAtOnce() {
    var m = Migration.of(pool("a", "shared", "", "disruption: {consolidationPolicy: WhenUnderutilized, budgets: [{nodes: 20%}]}"), CLASS);
    var pool = m.object("NodePool", "a");
    assertEquals("WhenEmptyOrUnderutilized", at(pool, "spec.disruption.consolidationPolicy"));
    assertEquals("0s", at(pool, "spec.disruption.consolidateAfter"));
    assertEquals(List.of(Map.of("nodes", "20%")), at(pool, "spec.disruption.budgets"));
  }

  @Test
  void whenEmptyKeepsItsConsolidateAfter() {
    var pool = Migration.of(pool("a", "shared", "", "disruption: {consolidationPolicy: WhenEmpty, consolidateAfter: 5m}"), CLASS)
        .object("NodePool", "a");
    assertEquals("WhenEmpty", at(pool, "spec.disruption.consolidationPolicy"));
    assertEquals("5m", at(pool, "spec.disruption.consolidateAfter"));
  }

  @Test
  void noDisruptionBlockMeantWhatV1DefaultsToSoNoneIsWritten() {
    var m = Migration.of(pool("a", "shared", "", ""), CLASS);
    assertNull(at(m.object("NodePool", "a"), "spec.disruption"));
    m.noFinding("spec.disruption.consolidationPolicy");
  }

  @Test
  void expireAfterMovesIntoTheTemplate() {
    var pool = Migration.of(pool("a", "shared", "", "disruption: {expireAfter: 1440h, consolidationPolicy: WhenEmpty, consolidateAfter: 1m}"), CLASS)
        .object("NodePool", "a");
    assertEquals("1440h", at(pool, "spec.template.spec.expireAfter"));
    assertNull(at(pool, "spec.disruption.expireAfter"));
  }

  @Test
  void templateResourcesAreRemoved() {
    var m = Migration.of(pool("a", "shared", "resources: {requests: {cpu: 1}}", ""), CLASS);
    assertNull(at(m.object("NodePool", "a"), "spec.template.spec.resources"));
    m.finding(Kind.CHANGED, "spec.template.spec.resources", "removed");
  }

  @Test
  void poolsThatAgreeShareTheirKubeletOnTheClass() {
    var m = Migration.of(pool("a", "shared", "kubelet: {maxPods: 50}", ""), pool("b", "shared", "kubelet: {maxPods: 50}", ""), CLASS);
    assertEquals(Map.of("maxPods", 50), at(m.object("EC2NodeClass", "shared"), "spec.kubelet"));
    assertEquals("shared", at(m.object("NodePool", "b"), "spec.template.spec.nodeClassRef.name"));
    assertEquals(3, m.objects().size());
  }

  @Test
  void poolsThatDisagreeGetACopyOfTheClassEach() {
    var m = Migration.of(pool("a", "shared", "kubelet: {maxPods: 50}", ""), pool("b", "shared", "kubelet: {maxPods: 110}", ""),
        pool("c", "shared", "", ""), CLASS);
    assertEquals(Map.of("maxPods", 50), at(m.object("EC2NodeClass", "shared"), "spec.kubelet"));
    assertEquals(Map.of("maxPods", 110), at(m.object("EC2NodeClass", "shared-b"), "spec.kubelet"));
    assertNull(at(m.object("EC2NodeClass", "shared-c"), "spec.kubelet"));
    assertEquals("node-role", at(m.object("EC2NodeClass", "shared-c"), "spec.role"));
    assertEquals("shared", at(m.object("NodePool", "a"), "spec.template.spec.nodeClassRef.name"));
    assertEquals("shared-b", at(m.object("NodePool", "b"), "spec.template.spec.nodeClassRef.name"));
    assertEquals("shared-c", at(m.object("NodePool", "c"), "spec.template.spec.nodeClassRef.name"));
    m.finding(Kind.CHANGED, "spec.template.spec.kubelet", "now names EC2NodeClass shared-b");
    // The copies follow their class in its file.
    assertEquals(List.of("shared", "shared-b", "shared-c"), m.files().get(3).text().lines()
        .filter(l -> l.startsWith("  name: ")).map(l -> l.substring(8)).toList());
  }

  @Test
  void aV1PoolOnTheClassKeepsTheClassAsItIs() {
    var m = Migration.of(V1_POOL, pool("a", "shared", "kubelet: {maxPods: 50}", ""), CLASS);
    assertNull(at(m.object("EC2NodeClass", "shared"), "spec.kubelet"));
    assertEquals(Map.of("maxPods", 50), at(m.object("EC2NodeClass", "shared-a"), "spec.kubelet"));
    assertEquals("shared", at(m.object("NodePool", "old"), "spec.template.spec.nodeClassRef.name"));
  }

  @Test
  void unknownKubeletFieldsAreRefused() {
    var e = assertThrows(MigrationException.class, () -> Migration.of(pool("a", "shared", "kubelet: {maxPod: 50}", ""), CLASS));
    assertTrue(e.getMessage().contains("NodePool/a: spec.template.spec.kubelet.maxPod: no such field in kubelet settings"), e.getMessage());
  }

  @Test
  void aRefToAnotherKindIsRefused() {
    var e = assertThrows(MigrationException.class, () -> Migration.of(pool("a", "shared", "", "")
        .replace("kind: EC2NodeClass", "kind: AzureNodeClass")));
    assertTrue(e.getMessage().contains("Farrier launches nodes from a karpenter.k8s.aws EC2NodeClass"), e.getMessage());
  }

  @Test
  void aV1ClassInTheInputIsLeftAsItIsAndABetaPoolWithOtherKubeletGetsACopy() {
    var v1Class = CLASS.replace("karpenter.k8s.aws/v1beta1", "karpenter.k8s.aws/v1") + "  amiSelectorTerms: [{alias: al2023@latest}]\n"
        + "  kubelet: {maxPods: 20}\n";
    var m = Migration.of(pool("a", "shared", "kubelet: {maxPods: 50}", ""), pool("b", "shared", "", ""),
        pool("c", "shared", "kubelet: {maxPods: 20}", ""), v1Class);
    assertEquals(Map.of("maxPods", 20), at(m.object("EC2NodeClass", "shared"), "spec.kubelet"));
    assertEquals("karpenter.k8s.aws/v1", m.object("EC2NodeClass", "shared").get("apiVersion"));
    assertEquals(Map.of("maxPods", 50), at(m.object("EC2NodeClass", "shared-a"), "spec.kubelet"));
    assertNull(at(m.object("EC2NodeClass", "shared-b"), "spec.kubelet"), "b had none, and must not inherit the class's");
    assertEquals("shared", at(m.object("NodePool", "c"), "spec.template.spec.nodeClassRef.name"));
    assertTrue(m.findings(Kind.NEEDS_PERSON).isEmpty(), m.findings(Kind.NEEDS_PERSON).toString());
  }

  @Test
  void aV1PoolKeepsItsClassWhateverTheOrder() {
    var v1Class = CLASS.replace("karpenter.k8s.aws/v1beta1", "karpenter.k8s.aws/v1") + "  amiSelectorTerms: [{alias: al2023@latest}]\n";
    var m = Migration.of(pool("a", "shared", "kubelet: {maxPods: 50}", ""), V1_POOL, v1Class);
    assertFalse(m.files().get(1).changed());
    assertEquals("shared-a", at(m.object("NodePool", "a"), "spec.template.spec.nodeClassRef.name"));
  }

  @Test
  void statusIsDroppedFromWhatIsMigrated() {
    var m = Migration.of(pool("a", "shared", "", "") + "status: {resources: {cpu: '4'}}\n", CLASS + "status: {subnets: []}\n");
    assertNull(m.object("NodePool", "a").get("status"));
    assertNull(m.object("EC2NodeClass", "shared").get("status"));
  }

  @Test
  void expiryBeforeV1WasReplaceFirstSoTheAnnotationKeepsIt() {
    var byDefault = Migration.of(pool("a", "shared", "", ""), CLASS);
    assertEquals(Map.of("farrier.dev/expiry", "replace-first"), at(byDefault.object("NodePool", "a"), "metadata.annotations"));
    byDefault.finding(Kind.KEPT_DEFAULT, "spec.disruption.expireAfter", "unset, which meant 720h");
    var never = Migration.of(pool("a", "shared", "", "disruption: {expireAfter: Never, consolidationPolicy: WhenEmpty, consolidateAfter: 1m}"), CLASS);
    assertNull(at(never.object("NodePool", "a"), "metadata.annotations"));
  }
}

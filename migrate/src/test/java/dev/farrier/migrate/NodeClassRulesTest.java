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

/** v1alpha1 AWSNodeTemplates and v1beta1 EC2NodeClasses to v1 EC2NodeClasses: one test per rule. */
class NodeClassRulesTest {
  private static String template(String spec) {
    return """
        apiVersion: karpenter.k8s.aws/v1alpha1
        kind: AWSNodeTemplate
        metadata:
          name: nodes
        spec:
        """ + spec.indent(2);
  }

  private static String beta(String spec) {
    return """
        apiVersion: karpenter.k8s.aws/v1beta1
        kind: EC2NodeClass
        metadata:
          name: nodes
        spec:
          role: node-role
          subnetSelectorTerms: [{tags: {a: b}}]
          securityGroupSelectorTerms: [{tags: {a: b}}]
        """ + spec.indent(2);
  }

  private static final String SELECTORS = """
      instanceProfile: node-profile
      subnetSelector: {karpenter.sh/discovery: demo}
      securityGroupSelector: {karpenter.sh/discovery: demo}
      """;

  private static Map<String, Object> nodeClass(Migration m) {
    return m.object("EC2NodeClass", "nodes");
  }

  @Test
  void idsBecomeOneTermEach() {
    var m = Migration.of(template("""
        instanceProfile: p
        subnetSelector: {aws-ids: "subnet-1, subnet-2"}
        securityGroupSelector: {aws::ids: sg-1}
        amiSelector: {aws::ids: "ami-1,ami-2"}
        amiFamily: AL2023
        """));
    var c = nodeClass(m);
    assertEquals(List.of(Map.of("id", "subnet-1"), Map.of("id", "subnet-2")), at(c, "spec.subnetSelectorTerms"));
    assertEquals(List.of(Map.of("id", "sg-1")), at(c, "spec.securityGroupSelectorTerms"));
    assertEquals(List.of(Map.of("id", "ami-1"), Map.of("id", "ami-2")), at(c, "spec.amiSelectorTerms"));
    assertEquals("AL2023", at(c, "spec.amiFamily"));
    assertNull(at(c, "spec.subnetSelector"));
  }

  @Test
  void commaSeparatedTagValuesAndOwnersBecomeEveryCombination() {
    var c = nodeClass(Migration.of(template(SELECTORS + """
        amiFamily: AL2
        amiSelector: {aws::name: "eks-*", aws::owners: "self,amazon", team: "a,b"}
        """)));
    assertEquals(List.of(
        Map.of("name", "eks-*", "tags", Map.of("team", "a"), "owner", "self"),
        Map.of("name", "eks-*", "tags", Map.of("team", "a"), "owner", "amazon"),
        Map.of("name", "eks-*", "tags", Map.of("team", "b"), "owner", "self"),
        Map.of("name", "eks-*", "tags", Map.of("team", "b"), "owner", "amazon")), at(c, "spec.amiSelectorTerms"));
  }

  @Test
  void idsWithOtherFiltersKeepTheIdsAndAskAPerson() {
    var m = Migration.of(template(SELECTORS.replace("subnetSelector: {karpenter.sh/discovery: demo}",
        "subnetSelector: {aws-ids: subnet-1, Name: private}")));
    assertEquals(List.of(Map.of("id", "subnet-1")), at(nodeClass(m), "spec.subnetSelectorTerms"));
    m.finding(Kind.NEEDS_PERSON, "spec.subnetSelector", "only the ids were kept");
  }

  @Test
  void anUnsetFamilyWasAl2AndNoSelectorMeantItsLatestImage() {
    var m = Migration.of(template(SELECTORS));
    assertEquals(List.of(Map.of("alias", "al2@latest")), at(nodeClass(m), "spec.amiSelectorTerms"));
    assertNull(at(nodeClass(m), "spec.amiFamily"));
    m.finding(Kind.KEPT_DEFAULT, "spec.amiFamily", "unset, which meant AL2");
  }

  @Test
  void aSetFamilyWithoutSelectorsBecomesItsAlias() {
    for (var family : Map.of("AL2023", "al2023", "Bottlerocket", "bottlerocket", "Windows2022", "windows2022").entrySet()) {
      var c = nodeClass(Migration.of(template(SELECTORS + "amiFamily: " + family.getKey())));
      assertEquals(List.of(Map.of("alias", family.getValue() + "@latest")), at(c, "spec.amiSelectorTerms"), family.getKey());
      assertEquals(family.getKey(), at(c, "spec.amiFamily"));
    }
  }

  @Test
  void anUnsetFamilyWithSelectorsIsWrittenAsAl2() {
    var m = Migration.of(template(SELECTORS + "amiSelector: {aws::ids: ami-1}"));
    assertEquals("AL2", at(nodeClass(m), "spec.amiFamily"));
    m.finding(Kind.KEPT_DEFAULT, "spec.amiFamily", "wrote amiFamily: AL2");
  }

  @Test
  void ubuntuNeedsAPerson() {
    var m = Migration.of(template(SELECTORS + "amiFamily: Ubuntu"));
    m.finding(Kind.NEEDS_PERSON, "spec.amiFamily", "v1 has no Ubuntu family");
    assertTrue(m.file().needsPerson());
  }

  @Test
  void theOldHopLimitIsKeptWhenUnsetAndLeftWhenSet() {
    var unset = Migration.of(template(SELECTORS));
    assertEquals(Map.of("httpEndpoint", "enabled", "httpProtocolIPv6", "disabled", "httpPutResponseHopLimit", 2,
        "httpTokens", "required"), at(nodeClass(unset), "spec.metadataOptions"));
    unset.finding(Kind.KEPT_DEFAULT, "spec.metadataOptions", "v1's default is 1");

    var partly = Migration.of(template(SELECTORS + "metadataOptions: {httpTokens: optional}"));
    assertEquals(Map.of("httpTokens", "optional", "httpPutResponseHopLimit", 2), at(nodeClass(partly), "spec.metadataOptions"));

    var set = Migration.of(template(SELECTORS + "metadataOptions: {httpPutResponseHopLimit: 1}"));
    assertEquals(Map.of("httpPutResponseHopLimit", 1), at(nodeClass(set), "spec.metadataOptions"));
    set.noFinding("spec.metadataOptions");
    set.noFinding("spec.metadataOptions.httpPutResponseHopLimit");
  }

  @Test
  void noInstanceProfileTakesTheControllersDefaultOrAsksAPerson() {
    String spec = SELECTORS.replace("instanceProfile: node-profile\n", "");
    var given = Migration.of(new Migrator.Options("KarpenterNodeInstanceProfile-demo"), template(spec));
    assertEquals("KarpenterNodeInstanceProfile-demo", at(nodeClass(given), "spec.instanceProfile"));
    assertFalse(given.file().needsPerson());

    var none = Migration.of(template(spec));
    assertNull(at(nodeClass(none), "spec.instanceProfile"));
    none.finding(Kind.NEEDS_PERSON, "spec.instanceProfile", "--default-instance-profile");
  }

  @Test
  void aLaunchTemplateNeedsAPersonAndIsRemoved() {
    var m = Migration.of(template(SELECTORS + "launchTemplate: my-template"));
    assertNull(at(nodeClass(m), "spec.launchTemplate"));
    m.finding(Kind.NEEDS_PERSON, "spec.launchTemplate", "launch templates are gone");
  }

  @Test
  void betaClassesKeepTheirTermsAndGetAliasAndHopLimit() {
    var m = Migration.of(beta("amiFamily: Bottlerocket"));
    var c = nodeClass(m);
    assertEquals("karpenter.k8s.aws/v1", c.get("apiVersion"));
    assertEquals(List.of(Map.of("alias", "bottlerocket@latest")), at(c, "spec.amiSelectorTerms"));
    assertEquals(2, at(c, "spec.metadataOptions.httpPutResponseHopLimit"));
    assertEquals("node-role", at(c, "spec.role"));
  }

  @Test
  void betaClassWithSelectorTermsKeepsThemAndItsFamily() {
    var m = Migration.of(beta("""
        amiFamily: AL2
        amiSelectorTerms: [{name: "my-ami-*", owner: self}]
        metadataOptions: {httpPutResponseHopLimit: 3}
        """));
    var c = nodeClass(m);
    assertEquals(List.of(Map.of("name", "my-ami-*", "owner", "self")), at(c, "spec.amiSelectorTerms"));
    assertEquals("AL2", at(c, "spec.amiFamily"));
    assertEquals(3, at(c, "spec.metadataOptions.httpPutResponseHopLimit"));
  }

  @Test
  void betaClassWithoutFamilyNeedsAPerson() {
    Migration.of(beta("tags: {a: b}")).finding(Kind.NEEDS_PERSON, "spec.amiFamily", "v1beta1 did not allow");
  }

  @Test
  void unknownClassFieldsAreRefused() {
    var e = assertThrows(MigrationException.class, () -> Migration.of(beta("amiFamily: AL2\nsubnetSelector: {a: b}")));
    assertTrue(e.getMessage().contains("EC2NodeClass/nodes: spec.subnetSelector: no such field in karpenter.k8s.aws/v1beta1 EC2NodeClass"),
        e.getMessage());
  }

  @Test
  void ubuntuWithSelectorTermsStillNeedsAPerson() {
    Migration.of(beta("amiFamily: Ubuntu\namiSelectorTerms: [{id: ami-123}]")).finding(Kind.NEEDS_PERSON, "spec.amiFamily",
        "keep the amiSelectorTerms that select the Ubuntu image");
  }

  @Test
  void unknownTemplateFieldsAreRefused() {
    var e = assertThrows(MigrationException.class, () -> Migration.of(template(SELECTORS + "subnetSelectorTerms: []")));
    assertTrue(e.getMessage().contains("AWSNodeTemplate/nodes: spec.subnetSelectorTerms: no such field in karpenter.k8s.aws/v1alpha1 AWSNodeTemplate"),
        e.getMessage());
  }

  @Test
  void amiIdsWithOwnersKeepTheIdsAndAskAPerson() {
    var m = Migration.of(template(SELECTORS + "amiFamily: AL2\namiSelector: {aws::ids: ami-1, aws::owners: self}"));
    assertEquals(List.of(Map.of("id", "ami-1")), at(nodeClass(m), "spec.amiSelectorTerms"));
    m.finding(Kind.NEEDS_PERSON, "spec.amiSelector", "only the ids were kept");
  }

  @Test
  void aSelectorValueThatIsNoScalarIsRefused() {
    var e = assertThrows(MigrationException.class, () -> Migration.of(template(SELECTORS.replace(
        "subnetSelector: {karpenter.sh/discovery: demo}", "subnetSelector: {Name: [a, b]}"))));
    assertTrue(e.getMessage().contains("spec.subnetSelector.Name: expected one value (commas OR several), got [a, b]"), e.getMessage());
  }

  @Test
  void aTemplateWithoutSelectorsNeedsAPerson() {
    var m = Migration.of(template("instanceProfile: p\namiFamily: AL2"));
    m.finding(Kind.NEEDS_PERSON, "spec.subnetSelector", "v1 needs subnetSelectorTerms");
    m.finding(Kind.NEEDS_PERSON, "spec.securityGroupSelector", "v1 needs securityGroupSelectorTerms");
  }

  @Test
  void anEc2FleetContextIsKeptAsV1sContext() {
    var beta = nodeClass(Migration.of(beta("amiFamily: AL2023\ncontext: reservation-context\n")));
    var alpha = nodeClass(Migration.of(template(SELECTORS + "context: reservation-context\n")));

    assertEquals("reservation-context", at(beta, "spec.context"));
    assertEquals("reservation-context", at(alpha, "spec.context"), "Farrier passes it with its launches, as v1 does");
  }
}

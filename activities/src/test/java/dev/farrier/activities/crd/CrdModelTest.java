package dev.farrier.activities.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Quantity;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CrdModelTest {
  @Test
  void exampleNodePoolReadsIntoTheModelAndWritesBackUnchanged() {
    Path file = Manifests.EXAMPLES.resolve("nodepool.yaml");
    NodePool pool = Manifests.read(file, NodePool.class);

    assertEquals("latest-current-ami", pool.getMetadata().getName());
    NodeClaimTemplateSpec template = pool.getSpec().template().spec();
    assertEquals(NodeClassReference.ec2NodeClass("latest-current-ami-template"), template.nodeClassRef());
    assertEquals(5, template.requirements().size());
    assertEquals(List.of("amd64", "arm64"), template.requirements().get(4).values());
    assertEquals("168h", template.expireAfter());
    assertEquals("latest-current-ami", pool.getSpec().template().metadata().labels().get("intent"));
    Disruption disruption = pool.getSpec().disruption();
    assertEquals(Disruption.WHEN_EMPTY_OR_UNDERUTILIZED, disruption.consolidationPolicy());
    assertEquals(new Budget("1", null, null, List.of("Drifted")), disruption.budgets().getFirst());
    assertEquals(new Quantity("500Gi"), pool.getSpec().limits().get("memory"));

    assertEquals(Manifests.scalarsAsText(Manifests.document(file)), Manifests.scalarsAsText(Manifests.tree(pool)));
  }

  @Test
  void exampleNodeClassReadsIntoTheModelAndWritesBackUnchanged() {
    Path file = Manifests.EXAMPLES.resolve("ec2nodeclass.yaml");
    EC2NodeClass nodeClass = Manifests.read(file, EC2NodeClass.class);

    EC2NodeClassSpec spec = nodeClass.getSpec();
    assertEquals("AL2", spec.amiFamily());
    assertEquals(List.of("ami-amd64prevami00000", "ami-arm64prevami00000"),
        spec.amiSelectorTerms().stream().map(AmiSelectorTerm::id).toList());
    assertEquals("<<CLUSTER_NAME>>", spec.subnetSelectorTerms().getFirst().tags().get("karpenter.sh/discovery"));
    assertNull(spec.metadataOptions(), "absent stays absent; the API server fills the default");
    assertEquals(MetadataOptions.DEFAULT, spec.metadataOptionsOrDefault());

    assertEquals(Manifests.scalarsAsText(Manifests.document(file)), Manifests.scalarsAsText(Manifests.tree(nodeClass)));
  }

  @Test
  void aNodeOverlayReadsIntoTheModelAndWritesBackUnchanged() {
    Path file = Manifests.TEST_MANIFESTS.resolve("nodeoverlay.yaml");
    NodeOverlay overlay = Manifests.read(file, NodeOverlay.class);

    NodeOverlaySpec spec = overlay.getSpec();
    assertEquals(10, spec.weight());
    assertEquals(new RequirementWithMinValues("karpenter.sh/capacity-type", "In", List.of("spot"), null), spec.requirements().get(1));
    assertEquals("-10%", spec.priceAdjustment());
    assertNull(spec.price());
    assertEquals(new Quantity("1"), spec.capacity().get("example.com/fpga"));
    assertEquals("karpenter.sh/v1alpha1", overlay.getApiVersion());

    assertEquals(Manifests.scalarsAsText(Manifests.document(file)), Manifests.scalarsAsText(Manifests.tree(overlay)));
  }

  @Test
  void seed000AmiSelectorTermsAreIdTermsOnly() {
    EC2NodeClassSpec spec = Manifests.read(Manifests.TEST_MANIFESTS.resolve("seed-000-ami-selector-terms.yaml"),
        EC2NodeClassSpec.class);

    assertEquals(List.of(new AmiSelectorTerm(null, "<<AMD64PREVAMI>>", null, null, null),
        new AmiSelectorTerm(null, "<<ARM64PREVAMI>>", null, null, null)), spec.amiSelectorTerms());
  }

  @Test
  void seed003V1ManifestsReadIntoTheModelAndWriteBackUnchanged() {
    Path poolFile = Manifests.TEST_MANIFESTS.resolve("seed-003-v1-nodepool.yaml");
    Path classFile = Manifests.TEST_MANIFESTS.resolve("seed-003-v1-ec2nodeclass.yaml");
    NodePool pool = Manifests.read(poolFile, NodePool.class);
    EC2NodeClass nodeClass = Manifests.read(classFile, EC2NodeClass.class);

    assertEquals("1440h", pool.getSpec().template().spec().expireAfter());
    assertEquals(new Quantity("8"), pool.getSpec().limits().get("cpu"));
    assertNull(pool.getSpec().disruption());
    assertEquals(List.of(Budget.DEFAULT), pool.getSpec().disruptionOrDefault().budgetsOrDefault());
    EC2NodeClassSpec spec = nodeClass.getSpec();
    assertEquals("al2023@latest", spec.amiSelectorTerms().getFirst().alias());
    assertEquals(List.of("10.10.0.10"), spec.kubelet().clusterDNS());
    assertEquals(new MetadataOptions("enabled", null, 2L, null), spec.metadataOptions());
    assertEquals("100Gi", spec.blockDeviceMappings().getFirst().ebs().volumeSize());
    assertTrue(spec.detailedMonitoring());

    assertEquals(Manifests.scalarsAsText(Manifests.document(poolFile)), Manifests.scalarsAsText(Manifests.tree(pool)));
    assertEquals(Manifests.scalarsAsText(Manifests.document(classFile)), Manifests.scalarsAsText(Manifests.tree(nodeClass)));
  }

  @Test
  void fieldsUnknownToTheModelAreIgnored() {
    String yaml = """
        apiVersion: karpenter.sh/v1
        kind: NodePool
        metadata: {name: future}
        spec:
          replicas: 3
          template:
            spec:
              nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default, futureField: x}
              requirements: []
          disruption: {consolidateAfter: 0s, consolidateWhen: WhenCostJustifiesDisruption}
        """;
    NodePool pool = Manifests.SERIALIZATION.unmarshal(yaml, NodePool.class);

    assertEquals("default", pool.getSpec().template().spec().nodeClassRef().name());
    assertEquals("0s", pool.getSpec().disruption().consolidateAfter());
  }

  @Test
  void nodeClaimStatusRoundTrips() {
    NodeClaim claim = new NodeClaim();
    claim.getMetadata().setName("default-abcde");
    claim.setStatus(new NodeClaimStatus("aws:///us-west-2a/i-0123", "ami-0123", "ip-10-0-0-1",
        java.util.Map.of("cpu", new Quantity("4")), java.util.Map.of("cpu", new Quantity("3920m")),
        List.of(Condition.of(NodeClaimStatus.LAUNCHED, Condition.TRUE, "Launched", "", Instant.EPOCH)),
        "2024-08-16T13:32:10Z"));

    NodeClaim back = Manifests.SERIALIZATION.unmarshal(Manifests.SERIALIZATION.asJson(claim), NodeClaim.class);

    assertEquals(claim.getStatus(), back.getStatus());
    JsonNode status = Manifests.tree(claim).get("status");
    assertEquals("aws:///us-west-2a/i-0123", status.get("providerID").asText());
    assertEquals("1970-01-01T00:00:00Z", status.get("conditions").get(0).get("lastTransitionTime").asText());
  }

  @Test
  void mergingAConditionWithAnUnchangedStatusKeepsItsTransitionTime() {
    Condition launched = Condition.of("Launched", Condition.TRUE, "Launched", "", Instant.parse("2024-01-01T00:00:00Z"));
    Condition relaunched = Condition.of("Launched", Condition.TRUE, "Launched", "again", Instant.parse("2024-02-01T00:00:00Z"));
    Condition registered = Condition.of("Registered", Condition.FALSE, "NotRegistered", "", Instant.parse("2024-02-01T00:00:00Z"));

    List<Condition> merged = Conditions.merge(List.of(launched), List.of(relaunched, registered));

    assertEquals(2, merged.size());
    assertEquals("2024-01-01T00:00:00Z", merged.get(0).lastTransitionTime());
    assertEquals("again", merged.get(0).message());
    assertTrue(Conditions.isTrue(merged, "Launched"));
    assertFalse(Conditions.isTrue(merged, "Registered"));
    Condition notLaunched = Condition.of("Launched", Condition.FALSE, "Gone", "", Instant.parse("2024-03-01T00:00:00Z"));
    assertEquals("2024-03-01T00:00:00Z", Conditions.merge(merged, List.of(notLaunched)).get(0).lastTransitionTime());
  }
}

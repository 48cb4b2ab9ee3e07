package dev.farrier.activities.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class NodePoolHashTest {
  private static final NodePool EXAMPLE = Manifests.read(Manifests.EXAMPLES.resolve("nodepool.yaml"), NodePool.class);
  private static final Taint GPU = new Taint("NoSchedule", "nvidia.com/gpu", null, "true");
  private static final Taint DEDICATED = new Taint("NoExecute", "dedicated", null, "batch");

  @Test
  void isStableAcrossReadsAndPinned() {
    NodePool again = Manifests.read(Manifests.EXAMPLES.resolve("nodepool.yaml"), NodePool.class);

    assertEquals(NodePoolHash.of(EXAMPLE), NodePoolHash.of(again));
    // Pinned: if this changes, every node Farrier launched drifts; bump NodePoolHash.VERSION with it.
    assertEquals(
        "{\"labels\":{\"intent\":\"latest-current-ami\"},"
            + "\"nodeClassRef\":[\"karpenter.k8s.aws\",\"EC2NodeClass\",\"latest-current-ami-template\"],"
            + "\"expireAfter\":\"604800s\"}",
        NodePoolHash.canonical(EXAMPLE.getSpec().template()));
  }

  @Test
  void ignoresRequirementsAndEverythingOutsideTheTemplate() {
    String hash = NodePoolHash.of(EXAMPLE);

    assertEquals(hash, NodePoolHash.of(withSpec(s -> s.withRequirements(List.of()))));
    NodePoolSpec spec = EXAMPLE.getSpec();
    NodePool otherPolicy = pool(new NodePoolSpec(spec.template(), new Disruption("WhenEmpty", "5m", List.of()),
        Map.of("cpu", new Quantity("1")), 50));
    assertEquals(hash, NodePoolHash.of(otherPolicy));
  }

  @Test
  void changesWithEveryHashedField() {
    String hash = NodePoolHash.of(EXAMPLE);

    assertNotEquals(hash, NodePoolHash.of(withMetadata(new TemplateMetadata(Map.of("intent", "other"), null))));
    assertNotEquals(hash, NodePoolHash.of(withMetadata(
        new TemplateMetadata(Map.of("intent", "latest-current-ami"), Map.of("team", "a")))));
    assertNotEquals(hash, NodePoolHash.of(withSpec(s -> s.withTaints(List.of(GPU)))));
    assertNotEquals(hash, NodePoolHash.of(withSpec(s -> s.withStartupTaints(List.of(GPU)))));
    assertNotEquals(hash, NodePoolHash.of(withSpec(s -> s.withNodeClassRef(NodeClassReference.ec2NodeClass("next")))));
    assertNotEquals(hash, NodePoolHash.of(withSpec(s -> s.withExpireAfter("Never"))));
    assertNotEquals(hash, NodePoolHash.of(withSpec(s -> s.withTerminationGracePeriod("48h"))));
  }

  /**
   * Karpenter: a change of the NodePool's expireAfter does not reach existing NodeClaims, it drifts them (their
   * replacements carry the new value). The hash is what drift compares, so every change of the duration changes it.
   */
  @Test
  void changingExpireAfterDriftsTheNodePoolsNodes() {
    assertNotEquals(NodePoolHash.of(withSpec(s -> s.withExpireAfter("720h"))),
        NodePoolHash.of(withSpec(s -> s.withExpireAfter("168h"))));
    assertNotEquals(NodePoolHash.of(withSpec(s -> s.withExpireAfter(null))),
        NodePoolHash.of(withSpec(s -> s.withExpireAfter("168h"))), "from the default 720h");
  }

  @Test
  void treatsTaintsAsASetAndDurationsByValue() {
    NodePool ab = withSpec(s -> s.withTaints(List.of(GPU, DEDICATED)));
    NodePool ba = withSpec(s -> s.withTaints(List.of(DEDICATED, GPU, DEDICATED)));
    assertEquals(NodePoolHash.of(ab), NodePoolHash.of(ba));

    assertEquals(NodePoolHash.of(withSpec(s -> s.withExpireAfter("168h"))),
        NodePoolHash.of(withSpec(s -> s.withExpireAfter("167h60m"))));
    assertEquals(NodePoolHash.of(withSpec(s -> s.withTerminationGracePeriod("90m"))),
        NodePoolHash.of(withSpec(s -> s.withTerminationGracePeriod("1.5h"))), "read by the one Go-duration parser");
    assertEquals(NodePoolHash.of(withSpec(s -> s.withExpireAfter(null))),
        NodePoolHash.of(withSpec(s -> s.withExpireAfter("720h"))), "absent expireAfter is the API server's 720h");
  }

  @Test
  void treatsEmptyMetadataAsAbsent() {
    assertEquals(NodePoolHash.of(withMetadata(new TemplateMetadata(Map.of(), Map.of()))),
        NodePoolHash.of(withMetadata(null)));
  }

  private static NodePool withMetadata(TemplateMetadata metadata) {
    NodePoolSpec spec = EXAMPLE.getSpec();
    return pool(new NodePoolSpec(new NodeClaimTemplate(metadata, spec.template().spec()), spec.disruption(),
        spec.limits(), spec.weight()));
  }

  private static NodePool withSpec(UnaryOperator<SpecEditor> edit) {
    NodePoolSpec spec = EXAMPLE.getSpec();
    NodeClaimTemplateSpec edited = edit.apply(new SpecEditor(spec.template().spec())).spec;
    return pool(new NodePoolSpec(new NodeClaimTemplate(spec.template().metadata(), edited), spec.disruption(),
        spec.limits(), spec.weight()));
  }

  private static NodePool pool(NodePoolSpec spec) {
    NodePool pool = new NodePool();
    pool.getMetadata().setName("p");
    pool.setSpec(spec);
    return pool;
  }

  /** Copies of a template spec with one field changed. */
  private record SpecEditor(NodeClaimTemplateSpec spec) {
    SpecEditor withRequirements(List<RequirementWithMinValues> v) {
      return new SpecEditor(new NodeClaimTemplateSpec(v, spec.taints(), spec.startupTaints(), spec.nodeClassRef(),
          spec.expireAfter(), spec.terminationGracePeriod()));
    }

    SpecEditor withTaints(List<Taint> v) {
      return new SpecEditor(new NodeClaimTemplateSpec(spec.requirements(), v, spec.startupTaints(),
          spec.nodeClassRef(), spec.expireAfter(), spec.terminationGracePeriod()));
    }

    SpecEditor withStartupTaints(List<Taint> v) {
      return new SpecEditor(new NodeClaimTemplateSpec(spec.requirements(), spec.taints(), v, spec.nodeClassRef(),
          spec.expireAfter(), spec.terminationGracePeriod()));
    }

    SpecEditor withNodeClassRef(NodeClassReference v) {
      return new SpecEditor(new NodeClaimTemplateSpec(spec.requirements(), spec.taints(), spec.startupTaints(), v,
          spec.expireAfter(), spec.terminationGracePeriod()));
    }

    SpecEditor withExpireAfter(String v) {
      return new SpecEditor(new NodeClaimTemplateSpec(spec.requirements(), spec.taints(), spec.startupTaints(),
          spec.nodeClassRef(), v, spec.terminationGracePeriod()));
    }

    SpecEditor withTerminationGracePeriod(String v) {
      return new SpecEditor(new NodeClaimTemplateSpec(spec.requirements(), spec.taints(), spec.startupTaints(),
          spec.nodeClassRef(), spec.expireAfter(), v));
    }
  }
}

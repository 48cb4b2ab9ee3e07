package dev.farrier.activities.provisioning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.farrier.activities.crd.Budget;
import dev.farrier.activities.crd.Disruption;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassSpec;
import dev.farrier.activities.crd.KubeletConfiguration;
import dev.farrier.activities.crd.NodeClaimTemplate;
import dev.farrier.activities.crd.NodeClaimTemplateSpec;
import dev.farrier.activities.crd.NodeClassReference;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolSpec;
import dev.farrier.activities.crd.RequirementWithMinValues;
import dev.farrier.activities.views.ResourceQuantities;
import dev.farrier.model.Resources;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each field NodePoolValidation reads, at its boundaries (the mutants PIT found unguarded, docs/MUTATION.md). */
class NodePoolValidationFieldsTest {
  private static final RequirementWithMinValues AMD64 = new RequirementWithMinValues("kubernetes.io/arch", "In", List.of("amd64"), null);

  private static NodePool pool(Integer weight, List<RequirementWithMinValues> requirements, List<Taint> taints, List<Taint> startupTaints,
      String terminationGracePeriod, Disruption disruption) {
    var pool = new NodePool();
    pool.setMetadata(new ObjectMetaBuilder().withName("p").build());
    pool.setSpec(new NodePoolSpec(new NodeClaimTemplate(null, new NodeClaimTemplateSpec(requirements, taints, startupTaints,
        NodeClassReference.ec2NodeClass("c"), null, terminationGracePeriod)), disruption, null, weight));
    return pool;
  }

  private static List<String> problems(NodePool pool) {
    return NodePoolValidation.problems(pool, null);
  }

  private static Taint taint(String key, String effect) {
    return new TaintBuilder().withKey(key).withEffect(effect).build();
  }

  @Test
  void weightIsBetweenOneAndAHundred() {
    for (int ok : List.of(1, 100)) {
      assertEquals(List.of(), problems(pool(ok, List.of(AMD64), List.of(), List.of(), null, null)));
    }
    assertEquals(List.of("spec.weight: 0 is not between 1 and 100"), problems(pool(0, List.of(AMD64), List.of(), List.of(), null, null)));
    assertEquals(List.of("spec.weight: 101 is not between 1 and 100"), problems(pool(101, List.of(AMD64), List.of(), List.of(), null, null)));
  }

  @Test
  void taintsAndStartupTaintsNeedAKeyAndAKnownEffect() {
    assertEquals(List.of("spec.template.spec.taints[0].effect: 'Sometimes' is not one of [NoExecute, NoSchedule, PreferNoSchedule]",
        "spec.template.spec.startupTaints[1].key: missing"),
        problems(pool(null, List.of(AMD64), List.of(taint("a", "Sometimes")), List.of(taint("b", "NoSchedule"), taint("", "NoSchedule")),
            null, null)));
  }

  @Test
  void theTerminationGracePeriodIsADurationAndNeverNever() {
    assertEquals(List.of("spec.template.spec.terminationGracePeriod: Never is not allowed here"),
        problems(pool(null, List.of(AMD64), List.of(), List.of(), "Never", null)));
    assertEquals(List.of("spec.template.spec.terminationGracePeriod: '5x' is not a duration (e.g. 30s, 15m, 720h)"),
        problems(pool(null, List.of(AMD64), List.of(), List.of(), "5x", null)));
    assertEquals(List.of(), problems(pool(null, List.of(AMD64), List.of(), List.of(), "48h", null)));
  }

  @Test
  void gtLtGteAndLteNeedOneIntegerAndMinValuesFitsTheValues() {
    assertEquals(List.of(), problems(pool(null, List.of(new RequirementWithMinValues("cpu", "Gt", List.of("4"), null),
        new RequirementWithMinValues("cpu", "Gte", List.of("4"), null), new RequirementWithMinValues("cpu", "Lte", List.of("8"), null),
        new RequirementWithMinValues("cpu", "Lt", List.of("-1"), null), new RequirementWithMinValues("t", "In", List.of("a", "b"), 2),
        new RequirementWithMinValues("t", "In", List.of("a"), 1), new RequirementWithMinValues("u", "Exists", null, null)),
        List.of(), List.of(), null, null)));
    assertEquals(List.of("spec.template.spec.requirements[0].values: Lt needs exactly one integer, not []",
        "spec.template.spec.requirements[1].minValues: 0 is not between 1 and the 1 value(s) listed",
        "spec.template.spec.requirements[2].values: Gte needs exactly one integer, not [x]"),
        problems(pool(null, List.of(new RequirementWithMinValues("cpu", "Lt", null, null),
            new RequirementWithMinValues("t", "In", List.of("a"), 0), new RequirementWithMinValues("cpu", "Gte", List.of("x"), null)),
            List.of(), List.of(), null, null)));
  }

  @Test
  void aRequirementOnTheZoneIdIsAProblemNamingTheZoneLabelToUseInstead() {
    assertEquals(List.of("spec.template.spec.requirements[0].key: topology.k8s.aws/zone-id is not supported in NodePool requirements yet"
            + " (Farrier chooses zones by name); use topology.kubernetes.io/zone"),
        problems(pool(null, List.of(new RequirementWithMinValues("topology.k8s.aws/zone-id", "In", List.of("use1-az1"), null)),
            List.of(), List.of(), null, null)));
  }

  @Test
  void aBudgetsDurationIsADuration() {
    assertEquals(List.of("spec.disruption.budgets[0].duration: '1x' is not a duration (e.g. 30s, 15m, 720h)"),
        problems(pool(null, List.of(AMD64), List.of(), List.of(), null,
            new Disruption(null, null, List.of(new Budget("1", "0 9 * * *", "1x", null))))));
    assertEquals(List.of(), problems(pool(null, List.of(AMD64), List.of(), List.of(), null,
        new Disruption(null, "Never", List.of(new Budget("1", "0 9 * * *", "8h", null))))));
  }

  @Test
  void theNodeClassKubeletAmountsMustBeCountable() {
    var nodeClass = new EC2NodeClass();
    nodeClass.setMetadata(new ObjectMetaBuilder().withName("c").build());
    nodeClass.setSpec(new EC2NodeClassSpec(null, null, null, null, "role", null,
        new KubeletConfiguration(null, -1, null, Map.of("memory", "1e400"), Map.of("cpu", "abc"), Map.of("memory.available", "1e30Ei"),
            null, null, null, null, null, null), null, null, null, null, null, null, null));

    List<String> problems = NodePoolValidation.problems(pool(null, List.of(AMD64), List.of(), List.of(), null, null), nodeClass);

    assertEquals(List.of("EC2NodeClass c spec.kubelet.kubeReserved.cpu: 'abc' is not a quantity",
        "EC2NodeClass c spec.kubelet.systemReserved.memory: '1e400' is too large (at most 9223372036854775807)",
        "EC2NodeClass c spec.kubelet.evictionHard.memory.available: '1e30Ei' is not a quantity",
        "EC2NodeClass c spec.kubelet.maxPods: -1 is negative"), problems);
  }

  @Test
  void aNodePoolWithoutATemplateSaysSo() {
    var pool = new NodePool();
    pool.setMetadata(new ObjectMetaBuilder().withName("p").build());
    pool.setSpec(new NodePoolSpec(null, null, null, null));
    assertEquals(List.of("spec.template.spec: missing"), NodePoolValidation.problems(pool, null));
  }

  @Test
  void quantitiesAtTheirBoundsAreCountable() {
    assertNull(ResourceQuantities.problem("cpu", new Quantity("0")), "zero is no problem");
    assertNull(ResourceQuantities.problem("pods", new Quantity("9223372036854775807")), "the largest long is still countable");
    assertEquals(new Resources(Long.MIN_VALUE, Long.MIN_VALUE, 0, 0, Map.of()),
        ResourceQuantities.fromQuantities(Map.of("cpu", new Quantity("-1e30"), "memory", new Quantity("-1e400"))));
    assertEquals(Resources.ZERO, ResourceQuantities.fromQuantities(null));
  }
}

package dev.farrier.activities.provisioning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.crd.Budget;
import dev.farrier.activities.crd.Disruption;
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
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the API server admits but Farrier cannot plan, each problem naming its field; and quantities that never overflow. */
class NodePoolValidationTest {
  private static final RequirementWithMinValues AMD64 = new RequirementWithMinValues("kubernetes.io/arch", "In", List.of("amd64"), null);

  private static NodePool pool(List<RequirementWithMinValues> requirements, Map<String, Quantity> limits, Disruption disruption,
      String expireAfter, NodeClassReference ref) {
    var pool = new NodePool();
    pool.setMetadata(new ObjectMetaBuilder().withName("p").build());
    pool.setSpec(new NodePoolSpec(new NodeClaimTemplate(null, new NodeClaimTemplateSpec(requirements,
        List.of(new TaintBuilder().withKey("k").withEffect("NoSchedule").build()), List.of(), ref, expireAfter, "48h")),
        disruption, limits, 10));
    return pool;
  }

  private static NodePool good() {
    return pool(List.of(AMD64), Map.of("cpu", new Quantity("1000")), new Disruption(null, "30s", List.of(new Budget("10%", null, null, null))),
        "720h", NodeClassReference.ec2NodeClass("c"));
  }

  @Test
  void aSoundNodePoolHasNoProblem() {
    assertEquals(List.of(), NodePoolValidation.problems(good(), null));
  }

  @Test
  void aSurgeAnnotationThatIsNeitherTrueNorFalseIsReportedOnceOnTheNodePool() {
    var pool = good();
    pool.getMetadata().setAnnotations(Map.of("farrier.dev/surge", "True"));
    assertEquals(List.of("metadata.annotations[farrier.dev/surge]: must be \"true\" or \"false\", not \"True\""),
        NodePoolValidation.problems(pool, null));
    pool.getMetadata().setAnnotations(Map.of("farrier.dev/surge", "false"));
    assertEquals(List.of(), NodePoolValidation.problems(pool, null));
  }

  @Test
  void limitsThatCannotBeCountedNameTheirField() {
    var pool = pool(List.of(AMD64), Map.of("cpu", new Quantity("9223372036854775807"), "memory", new Quantity("-1Gi"),
        "pods", new Quantity("1e400")), null, null, NodeClassReference.ec2NodeClass("c"));

    List<String> problems = NodePoolValidation.problems(pool, null);

    assertTrue(problems.contains("spec.limits.cpu: '9223372036854775807' is too large (at most 9223372036854775807m)"), "" + problems);
    assertTrue(problems.contains("spec.limits.memory: '-1Gi' is negative"), "" + problems);
    assertTrue(problems.stream().anyMatch(p -> p.startsWith("spec.limits.pods: '1e400' is too large")), "" + problems);
  }

  @Test
  void requirementsThatCanNeverMatchAreProblems() {
    var pool = pool(List.of(AMD64, new RequirementWithMinValues("a", "Equals", List.of("x"), null),
        new RequirementWithMinValues("b", "In", List.of(), null), new RequirementWithMinValues("c", "Gt", List.of("abc"), null),
        new RequirementWithMinValues("", "Exists", null, null),
        new RequirementWithMinValues("d", "In", List.of("x"), 2)), null, null, null, NodeClassReference.ec2NodeClass("c"));

    List<String> problems = NodePoolValidation.problems(pool, null);

    assertEquals(List.of(
        "spec.template.spec.requirements[1].operator: 'Equals' is not one of [DoesNotExist, Exists, Gt, Gte, In, Lt, Lte, NotIn]",
        "spec.template.spec.requirements[2].values: In needs at least one value (b could never match)",
        "spec.template.spec.requirements[3].values: Gt needs exactly one integer, not [abc]",
        "spec.template.spec.requirements[4].key: missing",
        "spec.template.spec.requirements[5].minValues: 2 is not between 1 and the 1 value(s) listed"), problems);
  }

  @Test
  void badBudgetsDurationsAndReferencesAreProblems() {
    var pool = pool(List.of(AMD64), null, new Disruption("Sometimes", "soon", List.of(new Budget("150%", null, null, null),
        new Budget("1", "0 9 * * *", null, null), new Budget("abc", null, null, null))), "abc", new NodeClassReference("x", "Other", "c"));

    List<String> problems = NodePoolValidation.problems(pool, null);

    assertEquals(List.of(
        "spec.template.spec.nodeClassRef: must be karpenter.k8s.aws/EC2NodeClass, not x/Other",
        "spec.template.spec.expireAfter: 'abc' is not a duration (e.g. 30s, 15m, 720h, or Never)",
        "spec.disruption.consolidationPolicy: 'Sometimes' is not WhenEmpty, WhenEmptyOrUnderutilized or Balanced",
        "spec.disruption.consolidateAfter: 'soon' is not a duration (e.g. 30s, 15m, 720h, or Never)",
        "spec.disruption.budgets[0].nodes: '150%' is not a count or a percentage up to 100%",
        "spec.disruption.budgets[1]: schedule and duration go together",
        "spec.disruption.budgets[2].nodes: 'abc' is not a count or a percentage up to 100%"), problems);
    assertEquals(List.of("spec.template.spec.nodeClassRef.name: missing"),
        NodePoolValidation.problems(pool(List.of(AMD64), null, null, null, null), null));
  }

  @Test
  void whatTheSchemaPatternsAdmitButGoOrCronRefuseAreProblems() {
    var pool = pool(List.of(AMD64, new RequirementWithMinValues("kubernetes.io/arch", "Exists", List.of("amd64"), null)), null,
        new Disruption(null, "99999999999999h", List.of(new Budget("99999999999", null, null, null),
            new Budget("1", "0 0 * * * *", "1h", null), new Budget("1", "@daily", "8h", List.of("Bored")),
            new Budget("0", "0 9 * * mon-fri", "8h", List.of("Drifted")))), "3000000000000h", NodeClassReference.ec2NodeClass("c"));

    List<String> problems = new java.util.ArrayList<>(NodePoolValidation.problems(pool, null));
    String cron = "spec.disruption.budgets[1].schedule: '0 0 * * * *' is not a cron schedule (five fields in UTC, or @daily, @hourly, ...): ";
    assertTrue(problems.get(4).startsWith(cron) && problems.get(4).length() > cron.length(), "cron-utils says why: " + problems.get(4));
    problems.set(4, cron);

    assertEquals(List.of(
        "spec.template.spec.requirements[1].values: Exists takes no values, not [amd64]",
        "spec.template.spec.expireAfter: '3000000000000h' is longer than a duration can be (about 292 years)",
        "spec.disruption.consolidateAfter: '99999999999999h' is longer than a duration can be (about 292 years)",
        "spec.disruption.budgets[0].nodes: '99999999999' is larger than a count can be",
        cron,
        "spec.disruption.budgets[2].reasons: 'Bored' is not one of [Drifted, Empty, Underutilized]"), problems);
  }

  @Test
  void quantitiesNeverOverflowAndSayWhatIsWrong() {
    Resources huge = ResourceQuantities.fromQuantities(Map.of("cpu", new Quantity("1e30"), "memory", new Quantity("1e400"),
        "nvidia.com/gpu", new Quantity("1e19")));

    assertEquals(new Resources(Long.MAX_VALUE, Long.MAX_VALUE, 0, 0, Map.of("nvidia.com/gpu", Long.MAX_VALUE)), huge);
    assertEquals(null, ResourceQuantities.problem("cpu", new Quantity("9223372036854775")));
    assertEquals("'9223372036854776' is too large (at most 9223372036854775807m)", ResourceQuantities.problem("cpu", new Quantity("9223372036854776")));
    assertEquals("'abc' is not a quantity", ResourceQuantities.problem("memory", new Quantity("abc")));
  }
}

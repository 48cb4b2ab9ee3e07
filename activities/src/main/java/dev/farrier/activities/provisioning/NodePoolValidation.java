package dev.farrier.activities.provisioning;

import dev.farrier.activities.crd.Budget;
import dev.farrier.activities.crd.Disruption;
import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.KubeletConfiguration;
import dev.farrier.activities.crd.NodeClaimTemplateSpec;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolSpec;
import dev.farrier.activities.crd.RequirementWithMinValues;
import dev.farrier.activities.views.ResourceQuantities;
import dev.farrier.planner.BudgetSchedule;
import dev.farrier.model.GoDurations;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Whether a NodePool (with the kubelet settings of its EC2NodeClass) can be planned: the one check both the status loop
 * (condition {@code ValidationSucceeded}, Ready False, an Event) and planning (the NodePool is skipped, every other one
 * goes on) use, so they never disagree. The CRDs reject most bad input at admission; this catches what passes it (a
 * quantity too large to count, a negative limit, a requirement that cannot match, a duration Go would not parse) and
 * names the field.
 */
public final class NodePoolValidation {
  private static final Set<String> OPERATORS = Set.of("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte");
  private static final Set<String> EFFECTS = Set.of("NoSchedule", "PreferNoSchedule", "NoExecute");
  private static final Pattern BUDGET_NODES = Pattern.compile("^((100|[0-9]{1,2})%|[0-9]+)$");
  private static final Pattern INTEGER = Pattern.compile("^-?[0-9]+$");
  private static final Set<String> BUDGET_REASONS = Set.of("Underutilized", "Empty", "Drifted");
  /** The longest duration Go's {@code time.Duration} holds (int64 nanoseconds, about 292 years), in milliseconds. */
  static final long MAX_DURATION_MILLIS = Long.MAX_VALUE / 1_000_000;

  private NodePoolValidation() {}

  /** Every problem, each naming its field; empty when the NodePool can be planned. */
  public static List<String> problems(NodePool pool, EC2NodeClass nodeClass) {
    List<String> problems = new ArrayList<>();
    NodePoolSpec spec = pool.getSpec();
    if (spec == null || spec.template() == null || spec.template().spec() == null) {
      problems.add("spec.template.spec: missing");
      return problems;
    }
    NodeClaimTemplateSpec template = spec.template().spec();
    if (template.nodeClassRef() == null || blank(template.nodeClassRef().name())) {
      problems.add("spec.template.spec.nodeClassRef.name: missing");
    } else if (!EC2NodeClass.KIND.equals(template.nodeClassRef().kind()) || !EC2NodeClass.GROUP.equals(template.nodeClassRef().group())) {
      problems.add("spec.template.spec.nodeClassRef: must be " + EC2NodeClass.GROUP + "/" + EC2NodeClass.KIND + ", not "
          + template.nodeClassRef().group() + "/" + template.nodeClassRef().kind());
    }
    spec.limitsOrEmpty().forEach((resource, quantity) -> quantity(problems, "spec.limits." + resource, resource, quantity));
    if (spec.weight() != null && (spec.weight() < 1 || spec.weight() > 100)) {
      problems.add("spec.weight: " + spec.weight() + " is not between 1 and 100");
    }
    List<RequirementWithMinValues> requirements = template.requirementsOrEmpty();
    for (int i = 0; i < requirements.size(); i++) {
      requirement(problems, "spec.template.spec.requirements[" + i + "]", requirements.get(i));
    }
    taints(problems, "spec.template.spec.taints", template.taintsOrEmpty());
    taints(problems, "spec.template.spec.startupTaints", template.startupTaintsOrEmpty());
    duration(problems, "spec.template.spec.expireAfter", template.expireAfter(), true);
    duration(problems, "spec.template.spec.terminationGracePeriod", template.terminationGracePeriod(), false);
    disruption(problems, spec.disruption());
    String surge = pool.getMetadata() == null || pool.getMetadata().getAnnotations() == null ? null
        : pool.getMetadata().getAnnotations().get(WellKnown.SURGE_ANNOTATION);
    if (surge != null && !surge.equals("true") && !surge.equals("false")) {
      problems.add("metadata.annotations[" + WellKnown.SURGE_ANNOTATION + "]: must be \"true\" or \"false\", not \"" + surge + "\"");
    }
    if (nodeClass != null) {
      nodeClassProblems(nodeClass).forEach(p -> problems.add("EC2NodeClass " + nodeClass.getMetadata().getName() + " " + p));
    }
    return problems;
  }

  /** Why a NodePool gets no nodes when its EC2NodeClass {@code name} is missing (the status loop and planning say the same). */
  public static String nodeClassMissing(String name) {
    return "EC2NodeClass " + name + " does not exist";
  }

  /** Why a NodePool gets no nodes when its EC2NodeClass {@code name} has Ready False, as {@code ready}. */
  public static String nodeClassNotReady(String name, Condition ready) {
    return "EC2NodeClass " + name + " is not ready: " + ready.message();
  }

  /**
   * The problems of an EC2NodeClass that planning would trip over (kubelet amounts it cannot count), each naming its
   * field; the status loop shows them on the class itself as well as on every NodePool that uses it.
   */
  public static List<String> nodeClassProblems(EC2NodeClass nodeClass) {
    List<String> problems = new ArrayList<>();
    if (nodeClass.getSpec() != null) {
      kubelet(problems, "spec.kubelet", nodeClass.getSpec().kubelet());
    }
    return problems;
  }

  private static void requirement(List<String> problems, String field, RequirementWithMinValues r) {
    if (r == null || blank(r.key())) {
      problems.add(field + ".key: missing");
      return;
    }
    if (!OPERATORS.contains(r.operator())) {
      problems.add(field + ".operator: '" + r.operator() + "' is not one of " + new java.util.TreeSet<>(OPERATORS));
      return;
    }
    if (WellKnown.ZONE_ID_LABEL.equals(r.key())) {
      // Karpenter reads it as the offering's zone; Farrier labels nodes with it but plans zones by name only, so a
      // requirement on it would label claims with an id their zone may not have. Refused until zones are planned by id.
      problems.add(field + ".key: " + r.key() + " is not supported in NodePool requirements yet (Farrier chooses zones by name);"
          + " use " + WellKnown.ZONE_LABEL);
      return;
    }
    List<String> values = r.values() == null ? List.of() : r.values();
    switch (r.operator()) {
      case "In" -> {
        if (values.isEmpty()) {
          problems.add(field + ".values: In needs at least one value (" + r.key() + " could never match)");
        }
      }
      case "Exists", "DoesNotExist" -> {
        if (!values.isEmpty()) {
          problems.add(field + ".values: " + r.operator() + " takes no values, not " + values);
        }
      }
      case "Gt", "Lt", "Gte", "Lte" -> {
        if (values.size() != 1 || !INTEGER.matcher(values.getFirst()).matches()) {
          problems.add(field + ".values: " + r.operator() + " needs exactly one integer, not " + values);
        }
      }
      default -> { }
    }
    if (r.minValues() != null && (r.minValues() < 1 || ("In".equals(r.operator()) && r.minValues() > values.size()))) {
      problems.add(field + ".minValues: " + r.minValues() + " is not between 1 and the " + values.size() + " value(s) listed");
    }
  }

  private static void taints(List<String> problems, String field, List<Taint> taints) {
    for (int i = 0; i < taints.size(); i++) {
      Taint t = taints.get(i);
      if (t == null || blank(t.getKey())) {
        problems.add(field + "[" + i + "].key: missing");
      } else if (!EFFECTS.contains(t.getEffect())) {
        problems.add(field + "[" + i + "].effect: '" + t.getEffect() + "' is not one of " + new java.util.TreeSet<>(EFFECTS));
      }
    }
  }

  private static void disruption(List<String> problems, Disruption disruption) {
    if (disruption == null) {
      return;
    }
    if (disruption.consolidationPolicy() != null && !Set.of(Disruption.WHEN_EMPTY, Disruption.WHEN_EMPTY_OR_UNDERUTILIZED,
        Disruption.BALANCED).contains(disruption.consolidationPolicy())) {
      problems.add("spec.disruption.consolidationPolicy: '" + disruption.consolidationPolicy() + "' is not WhenEmpty,"
          + " WhenEmptyOrUnderutilized or Balanced");
    }
    duration(problems, "spec.disruption.consolidateAfter", disruption.consolidateAfter(), true);
    List<Budget> budgets = disruption.budgets() == null ? List.of() : disruption.budgets();
    for (int i = 0; i < budgets.size(); i++) {
      Budget b = budgets.get(i);
      String field = "spec.disruption.budgets[" + i + "]";
      if (b == null || b.nodes() == null || !BUDGET_NODES.matcher(b.nodes()).matches()) {
        problems.add(field + ".nodes: '" + (b == null ? null : b.nodes()) + "' is not a count or a percentage up to 100%");
        continue;
      }
      if (!b.nodes().endsWith("%") && !fitsInt(b.nodes())) {
        problems.add(field + ".nodes: '" + b.nodes() + "' is larger than a count can be");
      }
      if (blank(b.schedule()) != blank(b.duration())) {
        problems.add(field + ": schedule and duration go together");
      }
      if (!blank(b.schedule())) {
        BudgetSchedule.scheduleProblem(b.schedule()).ifPresent(p -> problems.add(field + ".schedule: '" + b.schedule() + "' " + p));
      }
      duration(problems, field + ".duration", b.duration(), false);
      for (String reason : b.reasons() == null ? List.<String>of() : b.reasons()) {
        if (!BUDGET_REASONS.contains(reason)) {
          problems.add(field + ".reasons: '" + reason + "' is not one of " + new java.util.TreeSet<>(BUDGET_REASONS));
        }
      }
    }
  }

  private static boolean fitsInt(String digits) {
    try {
      Integer.parseInt(digits);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static void kubelet(List<String> problems, String field, KubeletConfiguration kubelet) {
    if (kubelet == null) {
      return;
    }
    reserved(problems, field + ".kubeReserved", kubelet.kubeReserved());
    reserved(problems, field + ".systemReserved", kubelet.systemReserved());
    if (kubelet.evictionHard() != null) {
      String memory = kubelet.evictionHard().get("memory.available");
      if (memory != null && !memory.endsWith("%")) {
        quantity(problems, field + ".evictionHard.memory.available", "memory", memory);
      }
    }
    if (kubelet.maxPods() != null && kubelet.maxPods() < 0) {
      problems.add(field + ".maxPods: " + kubelet.maxPods() + " is negative");
    }
  }

  private static void reserved(List<String> problems, String field, Map<String, String> values) {
    if (values != null) {
      values.forEach((resource, value) -> quantity(problems, field + "." + resource, resource, value));
    }
  }

  /** A quantity written as text (the kubelet's settings): one that does not even parse is a problem, not an exception. */
  private static void quantity(List<String> problems, String field, String resource, String text) {
    Quantity quantity;
    try {
      quantity = text == null ? null : new Quantity(text);
    } catch (IllegalArgumentException e) {
      problems.add(field + ": '" + text + "' is not a quantity");
      return;
    }
    quantity(problems, field, resource, quantity);
  }

  private static void quantity(List<String> problems, String field, String resource, Quantity quantity) {
    String problem = quantity == null ? "missing" : ResourceQuantities.problem(resource, quantity);
    if (problem != null) {
      problems.add(field + ": " + problem);
    }
  }

  private static void duration(List<String> problems, String field, String value, boolean neverAllowed) {
    if (value == null) {
      return;
    }
    if ("Never".equals(value)) {
      if (!neverAllowed) {
        problems.add(field + ": Never is not allowed here");
      }
      return;
    }
    Long millis = GoDurations.toMillis(value);
    if (millis == null) {
      problems.add(field + ": '" + value + "' is not a duration (e.g. 30s, 15m, 720h" + (neverAllowed ? ", or Never" : "") + ")");
    } else if (millis >= MAX_DURATION_MILLIS) {
      // The schema's pattern admits any number of digits; Go (and so Karpenter) refuses past int64 nanoseconds.
      problems.add(field + ": '" + value + "' is longer than a duration can be (about 292 years)");
    }
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}

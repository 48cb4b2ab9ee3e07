package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.activities.status.StatusRefresher;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.workflows.activities.PlanProvisioningRequest;
import dev.farrier.model.PodRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One bad object never blocks the others: 35 hostile NodePools and EC2NodeClasses next to a good NodePool, on the
 * real kube-apiserver with the simulated cloud. What the CRDs can reject is rejected at admission; every hostile object
 * admitted is not Ready, says why on a condition and in an Event; and the good NodePool's pending pods are planned onto
 * it, by the same planning activity the reconciler calls, as if the others were not there (the pods are pinned to a label
 * the hostile NodePools carry too, and no existing node has, so they stay pending whatever else the shared stack runs).
 */
class HostileObjectsIT extends ClusterIT {
  private SimulatedActivities activities;
  private String namespace;
  private final List<String> admitted = new ArrayList<>();
  private final List<String> rejected = new ArrayList<>();
  private final List<String> rejections = new ArrayList<>();

  @BeforeEach
  void start(@TempDir Path cloudDir) {
    activities = new SimulatedActivities(client, cluster, cloudDir);
    namespace = KubeTestSupport.unique("hostile");
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
  }

  @AfterEach
  void stop() {
    KubeTestSupport.deleteQuietly(() -> client.namespaces().withName(namespace).delete());
    for (String name : admitted) {
      KubeTestSupport.deleteQuietly(() -> client.resources(NodePool.class).withName(name).delete());
    }
    activities.close();
  }

  /** A valid NodePool spec of the test's class, which {@code edit} makes hostile. */
  private Map<String, Object> spec(Consumer<Map<String, Object>> edit) {
    Map<String, Object> template = new LinkedHashMap<>();
    template.put("nodeClassRef", new LinkedHashMap<>(Map.of("group", "karpenter.k8s.aws", "kind", "EC2NodeClass", "name", activities.nodeClass)));
    template.put("requirements", new ArrayList<>(List.of(requirement("kubernetes.io/arch", "In", List.of("amd64")))));
    Map<String, Object> spec = new LinkedHashMap<>();
    // The good NodePool's label too, so a pod pinned to it could land on any hostile NodePool that were planned.
    spec.put("template", new LinkedHashMap<>(Map.of("metadata", Map.of("labels", Map.of("intent", activities.nodePool)), "spec", template)));
    edit.accept(spec);
    return spec;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> templateSpec(Map<String, Object> spec) {
    return (Map<String, Object>) ((Map<String, Object>) spec.get("template")).get("spec");
  }

  @SuppressWarnings("unchecked")
  private static List<Object> requirements(Map<String, Object> spec) {
    return (List<Object>) templateSpec(spec).get("requirements");
  }

  private static Map<String, Object> requirement(String key, String operator, List<String> values) {
    Map<String, Object> r = new LinkedHashMap<>(Map.of("key", key, "operator", operator));
    if (values != null) {
      r.put("values", values);
    }
    return r;
  }

  private static Consumer<Map<String, Object>> limit(String resource, Object value) {
    return s -> s.put("limits", Map.of(resource, value));
  }

  private static Consumer<Map<String, Object>> budget(Map<String, Object> budget) {
    return s -> s.put("disruption", Map.of("consolidateAfter", "0s", "budgets", List.of(budget)));
  }

  private static Consumer<Map<String, Object>> template(String field, Object value) {
    return s -> templateSpec(s).put(field, value);
  }

  private static Consumer<Map<String, Object>> addRequirement(Map<String, Object> requirement) {
    return s -> requirements(s).add(requirement);
  }

  /** Creates a NodePool; records whether the API server admitted it. */
  private void create(String label, Map<String, Object> spec) {
    String name = KubeTestSupport.unique("hostile");
    var pool = new GenericKubernetesResource();
    pool.setApiVersion("karpenter.sh/v1");
    pool.setKind("NodePool");
    pool.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).withAnnotations(Map.of("case", label)).build());
    pool.setAdditionalProperty("spec", spec);
    try {
      client.resource(pool).create();
      admitted.add(name);
    } catch (KubernetesClientException e) {
      assertEquals(422, e.getCode(), label + ": " + e.getMessage());
      rejected.add(label);
      rejections.add(label + ": " + e.getStatus().getMessage());
    }
  }

  private String nodeClass(String label, String yamlSpec) {
    return nodeClass(label, yamlSpec, "test");
  }

  /** An EC2NodeClass whose subnets are those tagged {@code karpenter.sh/discovery: subnetDiscovery}. */
  private String nodeClass(String label, String yamlSpec, String subnetDiscovery) {
    String name = KubeTestSupport.unique("hostile-class");
    KubeTestSupport.apply(client, """
        apiVersion: karpenter.k8s.aws/v1
        kind: EC2NodeClass
        metadata:
          name: %s
        spec:
          role: KarpenterNodeRole-test
          subnetSelectorTerms:
            - tags:
                karpenter.sh/discovery: %s
          securityGroupSelectorTerms:
            - tags:
                karpenter.sh/discovery: test
        %s
        """.formatted(name, subnetDiscovery, yamlSpec.indent(2)));
    return name;
  }

  private Consumer<Map<String, Object>> ofClass(String nodeClass) {
    return s -> ((Map<String, Object>) templateSpec(s).get("nodeClassRef")).put("name", nodeClass);
  }

  @Test
  void aBatchOfHostileObjectsNextToAGoodNodePoolNeverStopsIt() {
    // Admitted by the CRD, refused on resolution: Windows Server 2025 images start with Kubernetes 1.35, the cluster runs 1.34.
    String windows = nodeClass("unsupported alias", "amiSelectorTerms:\n  - alias: windows2025@latest\n");
    String badKubelet = nodeClass("bad kubelet quantities", """
        amiSelectorTerms:
          - alias: al2023@latest
        kubelet:
          kubeReserved:
            cpu: "1e30"
        """);
    Map<String, Consumer<Map<String, Object>>> cases = new LinkedHashMap<>();
    cases.put("cpu limit past a long of millicores", limit("cpu", "9223372036854775807"));
    cases.put("cpu limit 1e30", limit("cpu", "1e30"));
    cases.put("memory limit 1e400", limit("memory", "1e400"));
    cases.put("negative memory limit", limit("memory", "-1Gi"));
    cases.put("pods limit past a long", limit("pods", "99999999999999999999"));
    cases.put("gpu limit 1e19", limit("nvidia.com/gpu", "1e19"));
    cases.put("cpu limit abc", limit("cpu", "abc"));
    cases.put("weight 0", s -> s.put("weight", 0));
    cases.put("weight 1000", s -> s.put("weight", 1000));
    cases.put("budget 150%", budget(Map.of("nodes", "150%")));
    cases.put("budget abc", budget(Map.of("nodes", "abc")));
    cases.put("budget -1", budget(Map.of("nodes", "-1")));
    cases.put("budget empty", budget(Map.of("nodes", "")));
    cases.put("budget schedule without duration", budget(Map.of("nodes", "1", "schedule", "0 9 * * *")));
    cases.put("budget duration 1x", budget(Map.of("nodes", "1", "schedule", "0 9 * * *", "duration", "1x")));
    cases.put("budget reason Foo", budget(Map.of("nodes", "1", "reasons", List.of("Foo"))));
    cases.put("consolidateAfter soon", s -> s.put("disruption", Map.of("consolidateAfter", "soon")));
    cases.put("consolidationPolicy Sometimes", s -> s.put("disruption", Map.of("consolidateAfter", "0s", "consolidationPolicy", "Sometimes")));
    cases.put("expireAfter abc", template("expireAfter", "abc"));
    cases.put("expireAfter empty", template("expireAfter", ""));
    cases.put("terminationGracePeriod Never", template("terminationGracePeriod", "Never"));
    cases.put("terminationGracePeriod -5s", template("terminationGracePeriod", "-5s"));
    cases.put("operator Equals", addRequirement(requirement("kubernetes.io/os", "Equals", List.of("linux"))));
    cases.put("In without values", addRequirement(requirement("kubernetes.io/os", "In", List.of())));
    cases.put("Gt abc", addRequirement(requirement("karpenter.k8s.aws/instance-cpu", "Gt", List.of("abc"))));
    cases.put("Gt with two values", addRequirement(requirement("karpenter.k8s.aws/instance-cpu", "Gt", List.of("1", "2"))));
    cases.put("empty key", addRequirement(requirement("", "Exists", null)));
    cases.put("minValues above the values", addRequirement(new LinkedHashMap<>(Map.of("key", "node.kubernetes.io/instance-type",
        "operator", "In", "values", List.of("m5.large"), "minValues", 5))));
    cases.put("taint effect Sometimes", template("taints", List.of(Map.of("key", "a", "effect", "Sometimes"))));
    cases.put("startup taint without key", template("startupTaints", List.of(Map.of("key", "", "effect", "NoSchedule"))));
    cases.put("missing node class", ofClass("no-such-class"));
    // Valid, on a class that resolves no subnet: not Ready, so never launched for, though its weight would win every pod.
    String noSubnet = nodeClass("no subnet", "amiSelectorTerms:\n  - alias: al2023@latest\n", "nowhere");
    cases.put("node class that resolves no subnet", s -> {
      ofClass(noSubnet).accept(s);
      s.put("weight", 100);
    });
    cases.put("node class of another kind", s -> templateSpec(s).put("nodeClassRef", Map.of("group", "example.com", "kind", "Other",
        "name", activities.nodeClass)));
    cases.put("no nodeClassRef", s -> templateSpec(s).remove("nodeClassRef"));
    cases.put("unsupported AMI alias", ofClass(windows));
    cases.put("kubelet quantities past a long", ofClass(badKubelet));
    // Refused by the rules Karpenter v1's CRDs have and Farrier's copies gained: restricted label domains, label-value
    // and taint-key patterns, and limits that are never negative (strings by pattern, integers by minimum).
    cases.put("requirement key karpenter.sh/nodepool", addRequirement(requirement("karpenter.sh/nodepool", "In", List.of("x"))));
    cases.put("requirement key kubernetes.io/hostname", addRequirement(requirement("kubernetes.io/hostname", "Exists", null)));
    cases.put("requirement key in the k8s.io domain", addRequirement(requirement("example.k8s.io/thing", "Exists", null)));
    cases.put("requirement key in the kubernetes.io domain", addRequirement(requirement("kubernetes.io/role", "Exists", null)));
    cases.put("requirement value that is no label value", addRequirement(requirement("kubernetes.io/os", "In", List.of("linux !"))));
    cases.put("template label in the karpenter.sh domain", s -> ((Map<String, Object>) s.get("template"))
        .put("metadata", Map.of("labels", Map.of("karpenter.sh/custom", "x"))));
    cases.put("taint key with a space", template("taints", List.of(Map.of("key", "a b", "effect", "NoSchedule"))));
    cases.put("negative integer pods limit", limit("pods", -10));
    // Admitted (the schema's patterns allow them), caught by NodePoolValidation: Go would refuse the durations, the
    // budget's count and cron, and Exists takes no values.
    cases.put("expireAfter of centuries", template("expireAfter", "3000000000000h"));
    cases.put("consolidateAfter of centuries", s -> s.put("disruption", Map.of("consolidateAfter", "99999999999999h")));
    cases.put("budget count past an int", budget(Map.of("nodes", "99999999999")));
    cases.put("budget schedule with six fields", budget(Map.of("nodes", "1", "schedule", "0 0 * * * *", "duration", "1h")));
    cases.put("Exists with values", addRequirement(requirement("kubernetes.io/os", "Exists", List.of("linux"))));
    assertTrue(cases.size() >= 30, "at least 30 hostile objects: " + cases.size());
    cases.forEach((label, edit) -> create(label, spec(edit)));

    new StatusRefresher(cluster, activities.cloud, SimulatedActivities.CLUSTER, Clock.systemUTC()).refresh();

    assertEquals(cases.size(), admitted.size() + rejected.size());
    assertTrue(admitted.size() >= 8, "the API server admits what only Farrier can catch: " + String.join("\n", rejections));
    assertTrue(rejected.containsAll(List.of("cpu limit abc", "weight 0", "budget 150%", "budget abc", "operator Equals",
        "expireAfter abc", "requirement key karpenter.sh/nodepool", "requirement key kubernetes.io/hostname",
        "requirement key in the k8s.io domain", "requirement key in the kubernetes.io domain",
        "requirement value that is no label value", "template label in the karpenter.sh domain", "taint key with a space",
        "negative integer pods limit")), "the CRDs reject what they can: " + rejected);
    List<String> readyHostile = new ArrayList<>();
    for (String name : admitted) {
      NodePool pool = client.resources(NodePool.class).withName(name).get();
      List<Condition> conditions = pool.getStatus() == null || pool.getStatus().conditions() == null ? List.of() : pool.getStatus().conditions();
      Condition ready = Conditions.find(conditions, "Ready").orElse(null);
      if (ready == null || ready.isTrue()) {
        readyHostile.add(pool.getMetadata().getAnnotations().get("case"));
        continue;
      }
      assertTrue(client.v1().events().inAnyNamespace().list().getItems().stream()
          .anyMatch(e -> name.equals(e.getInvolvedObject().getName()) && ready.reason().equals(e.getReason())
              && e.getMessage().equals(ready.message())), "an Event saying why " + name + " is not ready: " + ready);
    }
    assertEquals(List.of(), readyHostile, "every hostile NodePool admitted says it is not ready");
    Condition limitProblem = Conditions.find(client.resources(NodePool.class).withName(admitted.get(0)).get().getStatus().conditions(),
        StatusRefresher.VALIDATION_SUCCEEDED).orElseThrow();
    assertEquals("spec.limits.cpu: '9223372036854775807' is too large (at most 9223372036854775807m)", limitProblem.message(),
        "the condition names the field");
    assertTrue(Conditions.isTrue(client.resources(NodePool.class).withName(activities.nodePool).get().getStatus().conditions(), "Ready"),
        "the good NodePool stays Ready");

    Pod pending = client.pods().inNamespace(namespace).resource(new PodBuilder()
        .withNewMetadata().withName("web").endMetadata()
        .withNewSpec().withNodeSelector(Map.of("intent", activities.nodePool)).addNewContainer().withName("c").withImage("pause")
          .withNewResources().addToRequests("cpu", new Quantity("500m")).endResources().endContainer()
        .endSpec().build()).create();
    Pod absurd = client.pods().inNamespace(namespace).resource(new PodBuilder()
        .withNewMetadata().withName("absurd").endMetadata()
        .withNewSpec().withNodeSelector(Map.of("intent", activities.nodePool)).addNewContainer().withName("c").withImage("pause")
          .withNewResources().addToRequests("cpu", new Quantity("1e30")).endResources().endContainer()
        .endSpec().build()).create();
    var plan = activities.planning.planProvisioning(new PlanProvisioningRequest(SimulatedActivities.CLUSTER, "hostile-1",
        List.of(ref(pending), ref(absurd))));

    assertEquals(1, plan.claims().size(), plan.toString());
    assertEquals(activities.nodePool, plan.claims().getFirst().nodePool(), "of the NodePools the pod may use, only the good one is"
        + " planned");
    assertTrue(plan.unschedulable().stream().anyMatch(u -> u.pod().name().equals("absurd")),
        "a pod asking for more than a long of millicores fits nowhere, and stops nothing: " + plan.unschedulable());
    assertFalse(activities.planning.planDisruption(new PlanDisruptionRequest(SimulatedActivities.CLUSTER)) == null);
  }

  private static PodRef ref(Pod pod) {
    return new PodRef(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), pod.getMetadata().getUid());
  }
}

package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.simulated.AmiCatalog;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.model.WellKnown;
import dev.farrier.sandbox.BlueprintAmis;
import dev.farrier.sandbox.SandboxEnvironment;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * One bad object never blocks the others, end to end: the worker (its own JVM, with Temporal, the status loop and the
 * reconciler) runs while a batch of hostile NodePools and EC2NodeClasses is applied next to one good NodePool. What
 * the API server can refuse it refuses (asserted, 422 each); each NodePool it admits is Ready False with a condition
 * naming the problem and exactly one Warning Event; the good NodePool's Deployment gets nodes of the good NodePool,
 * though every hostile pool has a higher weight and nothing keeping the pods out; a pod only a hostile pool could take
 * gets a FailedScheduling Event. ({@code HostileObjectsIT} in activities checks the planning activity on its own.)
 */
class HostileObjectsSandboxIT {
  /**
   * An object to apply; {@code problem} null means the API server must refuse it, else words one of the admitted
   * NodePool's conditions must say (empty for an admitted EC2NodeClass: its NodePool is checked).
   */
  private record Hostile(String name, String manifest, String problem) {}

  private static String pool(String name, String templateExtra, String specExtra) {
    return pool(name, "good", templateExtra, specExtra);
  }

  /** A weight-100 NodePool of {@code nodeClass} taking any pod, with fragments spliced into template.spec and spec. */
  private static String pool(String name, String nodeClass, String templateExtra, String specExtra) {
    return """
        {"apiVersion": "karpenter.sh/v1", "kind": "NodePool", "metadata": {"name": "%s"},
         "spec": {"weight": 100, "template": {"metadata": {"labels": {"intent": "%s"}}, "spec": {
            "nodeClassRef": {"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": "%s"},
            "requirements": [{"key": "karpenter.sh/capacity-type", "operator": "In", "values": ["on-demand"]}]%s}}%s}}"""
        .formatted(name, name, nodeClass, templateExtra, specExtra);
  }

  private static String nodeClass(String name, String amiTerm, String extra) {
    return """
        {"apiVersion": "karpenter.k8s.aws/v1", "kind": "EC2NodeClass", "metadata": {"name": "%s"},
         "spec": {"amiSelectorTerms": [%s], "role": "KarpenterNodeRole-<<CLUSTER>>", %s
           "subnetSelectorTerms": [{"tags": {"karpenter.sh/discovery": "<<CLUSTER>>"}}],
           "securityGroupSelectorTerms": [{"tags": {"karpenter.sh/discovery": "<<CLUSTER>>"}}]}}"""
        .formatted(name, amiTerm, extra);
  }

  private static String requirement(String requirement) {
    return ", \"requirements\": [" + requirement + "]";
  }

  /** What an admitted EC2NodeClass must say: nothing of its own here; the NodePool that uses it is checked. */
  private static final String CLASS_ADMITTED = "";

  /** {@code , "disruption": {...}} with the consolidateAfter the schema requires once disruption is written. */
  private static String disruption(String fields) {
    return ", \"disruption\": {\"consolidateAfter\": \"0s\", " + fields + "}";
  }

  private static Hostile rejected(String name, String manifest) {
    return new Hostile(name, manifest, null);
  }

  private static List<Hostile> hostile(String ami) {
    String amiId = "{\"id\": \"" + ami + "\"}";
    List<Hostile> all = new ArrayList<>();
    // Refused at admission by the CRD schema.
    all.add(rejected("bad-operator", pool("bad-operator", requirement("{\"key\": \"kubernetes.io/arch\", \"operator\": \"Maybe\", \"values\": [\"amd64\"]}"), "")));
    all.add(rejected("in-without-values", pool("in-without-values", requirement("{\"key\": \"kubernetes.io/arch\", \"operator\": \"In\"}"), "")));
    all.add(rejected("gt-not-a-number", pool("gt-not-a-number", requirement("{\"key\": \"karpenter.k8s.aws/instance-cpu\", \"operator\": \"Gt\", \"values\": [\"many\"]}"), "")));
    all.add(rejected("empty-key", pool("empty-key", requirement("{\"key\": \"\", \"operator\": \"Exists\"}"), "")));
    all.add(rejected("nodepool-key", pool("nodepool-key", requirement("{\"key\": \"karpenter.sh/nodepool\", \"operator\": \"In\", \"values\": [\"x\"]}"), "")));
    all.add(rejected("hostname-key", pool("hostname-key", requirement("{\"key\": \"kubernetes.io/hostname\", \"operator\": \"Exists\"}"), "")));
    all.add(rejected("bad-value", pool("bad-value", requirement("{\"key\": \"kubernetes.io/arch\", \"operator\": \"In\", \"values\": [\"amd 64!\"]}"), "")));
    all.add(rejected("min-values-zero", pool("min-values-zero", requirement("{\"key\": \"kubernetes.io/arch\", \"operator\": \"In\", \"values\": [\"amd64\"], \"minValues\": 0}"), "")));
    all.add(rejected("min-values-over", pool("min-values-over", requirement("{\"key\": \"kubernetes.io/arch\", \"operator\": \"In\", \"values\": [\"amd64\"], \"minValues\": 2}"), "")));
    all.add(rejected("negative-limit", pool("negative-limit", "", ", \"limits\": {\"cpu\": \"-4\"}")));
    all.add(rejected("negative-integer-limit", pool("negative-integer-limit", "", ", \"limits\": {\"pods\": -10}")));
    all.add(rejected("word-limit", pool("word-limit", "", ", \"limits\": {\"memory\": \"lots\"}")));
    all.add(rejected("empty-limit", pool("empty-limit", "", ", \"limits\": {\"cpu\": \"\"}")));
    all.add(rejected("budget-150", pool("budget-150", "", disruption("\"budgets\": [{\"nodes\": \"150%\"}]"))));
    all.add(rejected("budget-abc", pool("budget-abc", "", disruption("\"budgets\": [{\"nodes\": \"abc\"}]"))));
    all.add(rejected("budget-no-duration", pool("budget-no-duration", "", disruption("\"budgets\": [{\"nodes\": \"1\", \"schedule\": \"@daily\"}]"))));
    all.add(rejected("budget-seconds", pool("budget-seconds", "", disruption("\"budgets\": [{\"nodes\": \"1\", \"schedule\": \"@daily\", \"duration\": \"30s\"}]"))));
    all.add(rejected("budget-reason", pool("budget-reason", "", disruption("\"budgets\": [{\"nodes\": \"1\", \"reasons\": [\"Bored\"]}]"))));
    all.add(rejected("expire-forever", pool("expire-forever", ", \"expireAfter\": \"forever\"", "")));
    all.add(rejected("grace-never", pool("grace-never", ", \"terminationGracePeriod\": \"Never\"", "")));
    all.add(rejected("consolidate-words", pool("consolidate-words", "", ", \"disruption\": {\"consolidateAfter\": \"1 hour\"}")));
    all.add(rejected("policy-always", pool("policy-always", "", disruption("\"consolidationPolicy\": \"Always\""))));
    all.add(rejected("weight-1000", pool("weight-1000", "", ", \"weight\": 1000").replace("\"weight\": 100, ", "")));
    all.add(rejected("empty-class-name", pool("empty-class-name", "", "", "")));
    all.add(rejected("empty-taint-key", pool("empty-taint-key", ", \"taints\": [{\"key\": \"\", \"effect\": \"NoSchedule\"}]", "")));
    all.add(rejected("taint-effect", pool("taint-effect", ", \"taints\": [{\"key\": \"k\", \"effect\": \"Sometimes\"}]", "")));
    all.add(rejected("karpenter-label", pool("karpenter-label", "", "").replace("{\"intent\": \"karpenter-label\"}",
        "{\"karpenter.sh/custom\": \"x\"}")));
    all.add(rejected("nonsense-alias", nodeClass("nonsense-alias", "{\"alias\": \"nonsense@latest\"}", "")));
    all.add(rejected("no-ami-terms", nodeClass("no-ami-terms", "", "\"amiFamily\": \"AL2\",")));
    // Admitted (the schema cannot tell), then refused by the validator: skipped by planning, with a condition and an Event.
    all.add(new Hostile("cpu-limit-near-max", pool("cpu-limit-near-max", "", ", \"limits\": {\"cpu\": \"9223372036854775807\"}"), "spec.limits.cpu"));
    all.add(new Hostile("memory-limit-1e30", pool("memory-limit-1e30", "", ", \"limits\": {\"memory\": \"1e30\"}"), "spec.limits.memory"));
    all.add(new Hostile("pods-limit-100e", pool("pods-limit-100e", "", ", \"limits\": {\"pods\": \"100E\"}"), "spec.limits.pods"));
    all.add(new Hostile("expire-centuries", pool("expire-centuries", ", \"expireAfter\": \"3000000000000h\"", ""), "spec.template.spec.expireAfter"));
    all.add(new Hostile("grace-centuries", pool("grace-centuries", ", \"terminationGracePeriod\": \"9999999999999h\"", ""),
        "spec.template.spec.terminationGracePeriod"));
    all.add(new Hostile("consolidate-centuries", pool("consolidate-centuries", "", ", \"disruption\": {\"consolidateAfter\": \"99999999999999h\"}"),
        "spec.disruption.consolidateAfter"));
    all.add(new Hostile("budget-huge-count", pool("budget-huge-count", "", disruption("\"budgets\": [{\"nodes\": \"99999999999\"}]")),
        "spec.disruption.budgets[0].nodes"));
    all.add(new Hostile("budget-six-field-cron", pool("budget-six-field-cron", "",
        disruption("\"budgets\": [{\"nodes\": \"1\", \"schedule\": \"0 0 * * * *\", \"duration\": \"1h\"}]")),
        "spec.disruption.budgets[0].schedule"));
    all.add(new Hostile("exists-with-values", pool("exists-with-values",
        requirement("{\"key\": \"kubernetes.io/arch\", \"operator\": \"Exists\", \"values\": [\"amd64\"]}"), ""),
        "spec.template.spec.requirements[0].values"));
    all.add(new Hostile("missing-class", pool("missing-class", "no-such-class", "", ""), "EC2NodeClass no-such-class does not exist"));
    // Windows Server 2025 images start with Kubernetes 1.35; the sandbox runs 1.34, so the class resolves no image.
    all.add(new Hostile("windows", nodeClass("windows", "{\"alias\": \"windows2025@latest\"}", ""), CLASS_ADMITTED));
    all.add(new Hostile("windows-pool", pool("windows-pool", "windows", "", ""), "windows2025@latest"));
    all.add(new Hostile("reserves-everything", nodeClass("reserves-everything", amiId,
        "\"amiFamily\": \"AL2\", \"kubelet\": {\"kubeReserved\": {\"memory\": \"1e30\"}},"), CLASS_ADMITTED));
    all.add(new Hostile("reserving-pool", pool("reserving-pool", "reserves-everything", "", ""), "spec.kubelet.kubeReserved.memory: '1e30'"));
    return all;
  }

  @Test
  void hostileObjectsAreRefusedOrSkippedAndTheGoodNodePoolProvisions() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("hostile"), "e2e-hostile", 0)) {
      env.startWorker();
      KubernetesClient kube = env.kube();
      String ami = new BlueprintAmis(AmiCatalog.load(SimulatedCloudConfig.DEFAULT_KUBERNETES_VERSION))
          .al2(SimulatedCloudConfig.DEFAULT_KUBERNETES_VERSION, "amd64");
      apply(kube, env, nodeClass("good", "{\"id\": \"" + ami + "\"}", "\"amiFamily\": \"AL2\","));
      apply(kube, env, pool("good", "", "").replace("\"weight\": 100, ", ""));

      List<Hostile> all = hostile(ami);
      // Classes first, resolved by the status loop before any NodePool names them: each pool's condition then names its
      // problem from its first pass, so "one Event" is exact.
      List<String> refused = new ArrayList<>();
      List<Hostile> admitted = new ArrayList<>();
      applyAll(kube, env, all.stream().filter(h -> !isPool(h)).toList(), refused, admitted);
      for (Hostile c : List.copyOf(admitted)) {
        E2e.await(c.name() + " resolved", E2e.TIMEOUT, () -> kube.resources(EC2NodeClass.class).withName(c.name()).get().getStatus() != null);
      }
      applyAll(kube, env, all.stream().filter(HostileObjectsSandboxIT::isPool).toList(), refused, admitted);
      assertTrue(all.size() >= 30, "at least 30 hostile objects: " + all.size());

      apply(kube, env, """
          {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "good", "namespace": "default"},
           "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "good"}}, "template": {"metadata": {"labels": {"app": "good"}},
             "spec": {"containers": [{"name": "c", "image": "public.ecr.aws/eks-distro/kubernetes/pause:3.7",
               "resources": {"requests": {"cpu": "500m", "memory": "256Mi"}}}]}}}}""");
      apply(kube, env, """
          {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "only-for-a-bad-pool", "namespace": "default"},
           "spec": {"nodeSelector": {"intent": "cpu-limit-near-max"}, "containers": [{"name": "c",
             "image": "public.ecr.aws/eks-distro/kubernetes/pause:3.7", "resources": {"requests": {"cpu": "100m"}}}]}}""");

      E2e.await("3 good pods running", E2e.TIMEOUT, () -> running(kube).size() == 3);
      for (Pod p : running(kube)) {
        String pool = kube.nodes().withName(p.getSpec().getNodeName()).get().getMetadata().getLabels().get(WellKnown.NODEPOOL_LABEL);
        assertEquals("good", pool, p.getMetadata().getName() + " ran on a node of " + pool);
      }
      E2e.await("the pod only a skipped pool could take is told so", E2e.TIMEOUT,
          () -> events(kube, "only-for-a-bad-pool").stream().anyMatch(e -> "FailedScheduling".equals(e.getReason())));

      for (Hostile h : admitted.stream().filter(HostileObjectsSandboxIT::isPool).toList()) {
        E2e.await(h.name() + " not ready, saying " + h.problem(), E2e.TIMEOUT, () -> notReadySaying(kube, h));
        List<Event> warnings = events(kube, h.name()).stream().filter(e -> "Warning".equals(e.getType())).toList();
        assertEquals(1, warnings.size(), h.name() + ": one Event for the change, not one per pass: "
            + warnings.stream().map(Event::getMessage).collect(Collectors.joining(" | ")));
      }
      assertEquals(all.stream().filter(h -> h.problem() == null).map(Hostile::name).sorted().toList(), refused.stream().sorted().toList(),
          "refused at admission");
      NodePool good = kube.resources(NodePool.class).withName("good").get();
      assertTrue(Conditions.isTrue(good.getStatus().conditions(), "ValidationSucceeded"), String.valueOf(good.getStatus()));
      assertTrue(Conditions.isTrue(good.getStatus().conditions(), "Ready"), String.valueOf(good.getStatus()));
    }
  }

  /** Applies each object, sorting it into refused (asserting a 422) or admitted (asserting it was meant to be). */
  private static void applyAll(KubernetesClient kube, SandboxEnvironment env, List<Hostile> objects, List<String> refused,
      List<Hostile> admitted) {
    for (Hostile h : objects) {
      try {
        apply(kube, env, h.manifest());
        assertTrue(h.problem() != null, h.name() + " should have been refused at admission");
        admitted.add(h);
      } catch (KubernetesClientException e) {
        assertEquals(422, e.getCode(), h.name() + ": " + e.getMessage());
        assertTrue(h.problem() == null, h.name() + " should have been admitted: " + e.getMessage());
        refused.add(h.name());
      }
    }
  }

  private static boolean isPool(Hostile h) {
    return h.manifest().contains("\"kind\": \"NodePool\"");
  }

  private static void apply(KubernetesClient kube, SandboxEnvironment env, String manifest) {
    String resolved = manifest.replace("<<CLUSTER>>", env.cluster());
    kube.load(new ByteArrayInputStream(resolved.getBytes(StandardCharsets.UTF_8))).serverSideApply();
  }

  /** Ready False, and one of the NodePool's conditions (ValidationSucceeded, NodeClassReady, Ready) says the problem. */
  private static boolean notReadySaying(KubernetesClient kube, Hostile h) {
    NodePool pool = kube.resources(NodePool.class).withName(h.name()).get();
    if (pool.getStatus() == null || pool.getStatus().conditions() == null) {
      return false;
    }
    Optional<Condition> ready = Conditions.find(pool.getStatus().conditions(), "Ready");
    return ready.isPresent() && !ready.get().isTrue()
        && pool.getStatus().conditions().stream().anyMatch(c -> !c.isTrue() && c.message() != null && c.message().contains(h.problem()));
  }

  private static List<Event> events(KubernetesClient kube, String name) {
    return kube.v1().events().inAnyNamespace().list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName())).toList();
  }

  private static List<Pod> running(KubernetesClient kube) {
    return kube.pods().inNamespace("default").withLabel("app", "good").list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getSpec().getNodeName() != null
            && p.getStatus() != null && "Running".equals(p.getStatus().getPhase()))
        .toList();
  }
}

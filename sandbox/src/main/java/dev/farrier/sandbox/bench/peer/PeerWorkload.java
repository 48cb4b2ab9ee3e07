package dev.farrier.sandbox.bench.peer;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The workloads both controllers get, as Deployments of pause pods in one namespace, the same for a given seed:
 * <ul>
 *   <li><b>the mix</b> (scale-out and consolidation): six Deployments of different requests; {@code web} spread over
 *       the zones, {@code ha} one pod per node (a required hostname anti-affinity), {@code batch} and {@code jobs}
 *       spot-tolerant (no capacity-type constraint), the others on on-demand nodes only. The seed picks each one's
 *       requests among two sizes;</li>
 *   <li><b>the drift fleet</b>: one small pod per node (hostname anti-affinity) under a PodDisruptionBudget of
 *       {@code maxUnavailable: 10%}.</li>
 * </ul>
 */
final class PeerWorkload {
  static final String NAMESPACE = "peer";
  static final String DRIFT = "drift";
  static final String ON_DEMAND = "on-demand";

  /** One Deployment of the mix: its share of the pods, requests, and what it asks of nodes. */
  record Part(String name, double share, String cpu, String memory, boolean onDemandOnly, boolean zoneSpread, boolean onePerNode) {}

  private PeerWorkload() {}

  static List<Part> mix(long seed) {
    Random random = new Random(seed);
    return List.of(
        new Part("web", 0.30, pick(random, "250m", "500m"), pick(random, "512Mi", "1Gi"), true, true, false),
        new Part("api", 0.20, pick(random, "500m", "1"), pick(random, "1Gi", "2Gi"), true, false, false),
        new Part("batch", 0.25, pick(random, "250m", "500m"), pick(random, "256Mi", "512Mi"), false, false, false),
        new Part("jobs", 0.15, pick(random, "1", "2"), pick(random, "2Gi", "4Gi"), false, false, false),
        new Part("cache", 0.08, pick(random, "100m", "250m"), pick(random, "2Gi", "4Gi"), true, false, false),
        new Part("ha", 0.02, "250m", "256Mi", true, false, true));
  }

  private static String pick(Random random, String a, String b) {
    return random.nextBoolean() ? a : b;
  }

  /** Replicas per part for {@code total} pods: each its share rounded down, the rest to the first parts, in order. */
  static Map<String, Integer> replicas(List<Part> parts, int total) {
    var counts = new java.util.LinkedHashMap<String, Integer>();
    int given = 0;
    for (Part p : parts) {
      int n = (int) Math.floor(p.share() * total);
      counts.put(p.name(), n);
      given += n;
    }
    for (int i = 0; given < total; i = (i + 1) % parts.size(), given++) {
      counts.merge(parts.get(i).name(), 1, Integer::sum);
    }
    return counts;
  }

  /** {@code replicas} scaled to {@code fraction}, rounded up, so no part disappears. */
  static Map<String, Integer> scaled(Map<String, Integer> replicas, double fraction) {
    var counts = new java.util.LinkedHashMap<String, Integer>();
    replicas.forEach((name, n) -> counts.put(name, (int) Math.ceil(n * fraction)));
    return counts;
  }

  static Deployment deployment(Part part, int replicas) {
    var spec = new PodSpecBuilder().addNewContainer().withName("pause").withImage("public.ecr.aws/eks-distro/kubernetes/pause:3.7")
        .withNewResources().withRequests(Map.of("cpu", new Quantity(part.cpu()), "memory", new Quantity(part.memory()))).endResources()
        .endContainer().withTerminationGracePeriodSeconds(0L);
    if (part.onDemandOnly()) {
      spec.withNodeSelector(Map.of("karpenter.sh/capacity-type", ON_DEMAND));
    }
    var selector = new LabelSelectorBuilder().withMatchLabels(Map.of("app", part.name())).build();
    if (part.zoneSpread()) {
      spec.addNewTopologySpreadConstraint().withMaxSkew(1).withTopologyKey("topology.kubernetes.io/zone")
          .withWhenUnsatisfiable("DoNotSchedule").withLabelSelector(selector).endTopologySpreadConstraint();
    }
    if (part.onePerNode()) {
      spec.withNewAffinity().withNewPodAntiAffinity().addNewRequiredDuringSchedulingIgnoredDuringExecution()
          .withTopologyKey("kubernetes.io/hostname").withLabelSelector(selector).endRequiredDuringSchedulingIgnoredDuringExecution()
          .endPodAntiAffinity().endAffinity();
    }
    return new DeploymentBuilder().withNewMetadata().withName(part.name()).withNamespace(NAMESPACE).endMetadata()
        .withNewSpec().withReplicas(replicas).withSelector(selector)
        .withNewTemplate().withNewMetadata().withLabels(Map.of("app", part.name(), "peer", "bench")).endMetadata()
        .withSpec(spec.build()).endTemplate().endSpec().build();
  }

  static List<Deployment> mixDeployments(List<Part> parts, Map<String, Integer> replicas) {
    List<Deployment> all = new ArrayList<>();
    for (Part p : parts) {
      all.add(deployment(p, replicas.get(p.name())));
    }
    return all;
  }

  static Part driftPart() {
    return new Part(DRIFT, 1.0, "100m", "128Mi", true, false, true);
  }

  static PodDisruptionBudget driftBudget() {
    return new PodDisruptionBudgetBuilder().withNewMetadata().withName(DRIFT).withNamespace(NAMESPACE).endMetadata()
        .withNewSpec().withMaxUnavailable(new IntOrString("10%"))
        .withNewSelector().withMatchLabels(Map.of("app", DRIFT)).endSelector().endSpec().build();
  }
}

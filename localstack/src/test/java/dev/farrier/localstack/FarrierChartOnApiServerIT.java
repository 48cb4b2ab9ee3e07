package dev.farrier.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceAttributes;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceAttributesBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart installed on a real kube-apiserver: every object it renders is accepted, its workers are scheduled one
 * per host (kwok plays the nodes), and its ServiceAccount may do what the worker does and nothing more.
 */
@ExtendWith(LocalStackExtension.class)
class FarrierChartOnApiServerIT {
  private static final Path CHART = HelmChart.locate(Path.of(""));

  @Test
  void theChartInstallsAndItsServiceAccountMayDoTheWorkersJobAndNothingMore(LocalStack stack, @TempDir Path dir)
      throws Exception {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String namespace = "chart-it-" + suffix;
    String release = "farrier-" + suffix;
    List<String> nodes = List.of("chart-it-" + suffix + "-a", "chart-it-" + suffix + "-b");
    HelmChart.Rendered rendered = HelmChart.forStack(stack, CHART).template(release, namespace,
        Map.of("replicas", 2), List.of(CHART.resolve("ci/full-values.yaml")));
    WorkerSettingsFromChart worker = WorkerSettingsFromChart.of(rendered);

    try (KubernetesClient admin = client(stack.kubeconfig())) {
      try {
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
        for (var secret : worker.secretFiles().values().stream()
            .collect(Collectors.groupingBy(WorkerSettingsFromChart.SecretFile::secretName)).entrySet()) {
          admin.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName(secret.getKey()).endMetadata()
              .withStringData(secret.getValue().stream().collect(Collectors.toMap(f -> f.key(), f -> "test")))
              .build()).create();
        }
        // The ServiceMonitor's CRD (Prometheus Operator) is not part of the local stack; FarrierChartIT checks its shape.
        for (HasMetadata object : rendered.without("ServiceMonitor")) {
          assertNotNull(admin.resource(object).serverSideApply(), object.getKind());
        }
        nodes.forEach(name -> admin.nodes().resource(kwokNode(name, name.endsWith("a") ? "zone-a" : "zone-b")).create());

        List<Pod> running = LocalStackIT.await("2 workers Running", () -> {
          List<Pod> pods = admin.pods().inNamespace(namespace)
              .withLabels(worker.deployment().getSpec().getSelector().getMatchLabels()).list().getItems();
          return pods.size() == 2 && pods.stream().allMatch(p -> "Running".equals(p.getStatus().getPhase())) ? pods : null;
        });
        assertEquals(Set.copyOf(nodes), running.stream().map(p -> p.getSpec().getNodeName()).collect(Collectors.toSet()),
            "one worker per host, on the nodes Farrier does not manage");
        assertEquals(worker.serviceAccountName(), running.getFirst().getSpec().getServiceAccountName());
        LocalStackIT.await("the PDB allows one disruption", () -> {
          var pdb = admin.policy().v1().podDisruptionBudget().inNamespace(namespace).withName(release).get();
          return pdb.getStatus() != null && pdb.getStatus().getDisruptionsAllowed() == 1 ? pdb : null;
        });

        String token = admin.serviceAccounts().inNamespace(namespace).withName(worker.serviceAccountName())
            .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
            .getStatus().getToken();
        Path kubeconfig = stack.writeKubeconfig(dir.resolve("worker.kubeconfig"),
            "system:serviceaccount:" + namespace + ":" + worker.serviceAccountName(), token);
        try (KubernetesClient asWorker = client(kubeconfig)) {
          for (ResourceAttributes allowed : List.of(
              can("create", "karpenter.sh", "nodeclaims", null), can("delete", "karpenter.sh", "nodeclaims", null),
              can("patch", "karpenter.sh", "nodepools/status", null), can("watch", "karpenter.sh", "nodepools", null),
              can("patch", "karpenter.k8s.aws", "ec2nodeclasses", null), can("update", "karpenter.k8s.aws", "ec2nodeclasses/status", null),
              can("patch", "", "nodes", null), can("delete", "", "nodes", null), can("watch", "", "pods", null),
              can("create", "", "pods/eviction", "default"), can("delete", "", "pods", "default"),
              can("create", "", "events", "default"), can("list", "apps", "daemonsets", null),
              can("list", "policy", "poddisruptionbudgets", null), can("list", "", "persistentvolumes", null),
              can("get", "storage.k8s.io", "storageclasses", null), can("watch", "storage.k8s.io", "csinodes", null),
              can("create", "coordination.k8s.io", "leases", namespace), lease("get", namespace, LEASE), lease("update", namespace, LEASE),
              lease("patch", namespace, LEASE),
              // Surge and the capacity split read and patch Deployments anywhere; headroom creates and deletes its
              // placeholders' in the release namespace only.
              can("get", "apps", "deployments", "default"), can("watch", "apps", "deployments", null),
              can("patch", "apps", "deployments", "default"), can("get", "apps", "replicasets", "default"),
              can("list", "apps", "statefulsets", null), can("create", "apps", "deployments", namespace),
              can("delete", "apps", "deployments", namespace), can("get", "scheduling.k8s.io", "priorityclasses", null),
              can("create", "scheduling.k8s.io", "priorityclasses", null))) {
            assertTrue(allowed(asWorker, allowed), "the worker may " + allowed);
          }
          for (ResourceAttributes refused : List.of(
              can("create", "", "nodes", null), can("create", "", "pods", "default"), can("get", "", "secrets", namespace),
              can("list", "", "secrets", null), can("delete", "karpenter.k8s.aws", "ec2nodeclasses", null),
              can("update", "coordination.k8s.io", "leases", "kube-system"), can("delete", "coordination.k8s.io", "leases", namespace),
              lease("update", namespace, "kube-scheduler"), lease("get", namespace, "someone-elses"),
              can("create", "rbac.authorization.k8s.io", "clusterrolebindings", null),
              can("create", "apps", "deployments", "default"), can("delete", "apps", "deployments", "default"),
              can("update", "apps", "deployments", "default"), can("patch", "apps", "statefulsets", "default"),
              can("delete", "scheduling.k8s.io", "priorityclasses", null), can("list", "apps", "replicasets", null))) {
            assertFalse(allowed(asWorker, refused), "the worker may not " + refused);
          }

          // And in deed: the leader-election Lease is the worker's to write; a Node is not.
          assertNotNull(asWorker.leases().inNamespace(namespace).resource(new LeaseBuilder().withNewMetadata()
              .withName(LEASE).endMetadata().withNewSpec().withHolderIdentity("it").endSpec().build()).create());
          var refused = assertThrows(KubernetesClientException.class,
              () -> asWorker.nodes().resource(kwokNode("chart-it-" + suffix + "-forbidden", "zone-a")).create());
          assertEquals(403, refused.getCode(), refused.getMessage());
        }
      } finally {
        nodes.forEach(name -> admin.nodes().withName(name).delete());
        rendered.all(ClusterRoleBinding.class).forEach(b -> admin.resource(b).delete());
        rendered.all(ClusterRole.class).forEach(r -> admin.resource(r).delete());
        admin.namespaces().withName(namespace).delete();
      }
    }
  }

  /** The leader election's Lease, named in ci/full-values.yaml. */
  private static final String LEASE = "farrier-ci-leader";

  private static ResourceAttributes lease(String verb, String namespace, String name) {
    return new ResourceAttributesBuilder(can(verb, "coordination.k8s.io", "leases", namespace)).withName(name).build();
  }

  private static ResourceAttributes can(String verb, String group, String resource, String namespace) {
    String[] parts = resource.split("/", 2);
    return new ResourceAttributesBuilder().withVerb(verb).withGroup(group).withResource(parts[0])
        .withSubresource(parts.length > 1 ? parts[1] : null).withNamespace(namespace).build();
  }

  private static boolean allowed(KubernetesClient client, ResourceAttributes attributes) {
    return client.authorization().v1().selfSubjectAccessReview().create(new SelfSubjectAccessReviewBuilder()
        .withNewSpec().withResourceAttributes(attributes).endSpec().build()).getStatus().getAllowed();
  }

  /** A node kwok keeps Ready, labelled as the chart's nodeSelector and spread constraints expect. */
  private static Node kwokNode(String name, String zone) {
    return new NodeBuilder().withNewMetadata().withName(name)
        .addToAnnotations("kwok.x-k8s.io/node", "fake")
        .addToLabels("kubernetes.io/hostname", name).addToLabels("kubernetes.io/os", "linux")
        .addToLabels("topology.kubernetes.io/zone", zone).endMetadata()
        .withNewStatus().addToCapacity("cpu", new Quantity("4"))
        .addToCapacity("memory", new Quantity("8Gi"))
        .addToCapacity("pods", new Quantity("110"))
        .addToAllocatable("cpu", new Quantity("4"))
        .addToAllocatable("memory", new Quantity("8Gi"))
        .addToAllocatable("pods", new Quantity("110")).endStatus().build();
  }

  private static KubernetesClient client(Path kubeconfig) throws Exception {
    return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build();
  }
}

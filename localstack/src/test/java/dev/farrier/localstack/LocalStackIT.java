package dev.farrier.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalStackExtension.class)
class LocalStackIT {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final String KUBELET_VERSION = "v1.36.3-farrier-it";

  @Test
  void kubectlListsNamespacesThroughTheWrittenKubeconfig(LocalStack stack) throws Exception {
    CommandLine.Result result = CommandLine.run(List.of(stack.kubectl().toString(),
        "--kubeconfig", stack.kubeconfig().toString(), "get", "namespaces", "-o", "name"), Duration.ofSeconds(60));

    assertEquals(0, result.exitCode(), result.output());
    assertTrue(result.output().contains("namespace/default"), result.output());
    assertTrue(result.output().contains("namespace/kube-system"), result.output());
  }

  @Test
  void motoAnswersEc2AndSqsQueries(LocalStack stack) throws Exception {
    var client = HttpClient.newHttpClient();
    String auth = "AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/%s/aws4_request, SignedHeaders=host, Signature=0";
    var regions = client.send(HttpRequest.newBuilder(URI.create(stack.motoEndpoint() + "/?Action=DescribeRegions&Version=2016-11-15"))
        .header("Authorization", auth.formatted("ec2")).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, regions.statusCode(), regions.body());
    assertTrue(regions.body().contains("us-east-1"), regions.body());

    String queue = "farrier-it-" + UUID.randomUUID();
    var created = client.send(HttpRequest.newBuilder(URI.create(stack.motoEndpoint() + "/"))
        .header("Authorization", auth.formatted("sqs")).header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("Action=CreateQueue&QueueName=" + queue)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, created.statusCode(), created.body());
    assertTrue(created.body().contains(queue), created.body());
  }

  @Test
  void temporalListsFarrierSearchAttributesAsKeywords(LocalStack stack) throws Exception {
    CommandLine.Result result = CommandLine.run(List.of(stack.binDir().resolve("temporal").toString(),
        "operator", "search-attribute", "list", "--address", stack.temporalAddress(), "--output", "json",
        "--disable-config-file", "--disable-config-env"), Duration.ofSeconds(60));

    assertEquals(0, result.exitCode(), result.output());
    for (String name : LocalStack.FARRIER_SEARCH_ATTRIBUTES) {
      assertTrue(result.output().contains("\"" + name + "\": \"INDEXED_VALUE_TYPE_KEYWORD\""),
          name + " missing in " + result.output());
    }
  }

  /** The dev server keeps its database with a write-ahead log (half the server's CPU of the default journal). */
  @Test
  void temporalWritesItsDatabaseThroughAWriteAheadLog(LocalStack stack) {
    assertTrue(Files.exists(stack.runDir().resolve("temporal.db-wal")), "no write-ahead log beside temporal.db in " + stack.runDir());
  }

  @Test
  void kwokRunsPodsOnAnAnnotatedNodeAndEvictionRespectsThePdb(LocalStack stack) throws Exception {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String nodeName = "kwok-it-" + suffix;
    String namespace = "localstack-it-" + suffix;
    Map<String, String> appLabels = Map.of("app", "web-" + suffix);

    Config config = Config.fromKubeconfig(Files.readString(stack.kubeconfig()));
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      try {
        client.nodes().resource(simulatedNode(nodeName)).create();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
            .create();

        Node ready = await("node " + nodeName + " Ready", () -> {
          Node node = client.nodes().withName(nodeName).get();
          return node != null && node.getStatus().getConditions().stream()
              .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")) ? node : null;
        });
        // kwok fills only what the creator left empty: the version the simulated cloud set must survive.
        assertEquals(KUBELET_VERSION, ready.getStatus().getNodeInfo().getKubeletVersion());
        assertEquals(new Quantity("4"), ready.getStatus().getCapacity().get("cpu"));
        assertNotNull(await("lease of " + nodeName,
            () -> client.leases().inNamespace("kube-node-lease").withName(nodeName).get()));

        client.apps().deployments().inNamespace(namespace).resource(deployment(appLabels, nodeName)).create();
        client.policy().v1().podDisruptionBudget().inNamespace(namespace).resource(pdb(appLabels)).create();

        List<Pod> running = await("2 pods Running and Ready on " + nodeName,
            () -> runningOn(client, namespace, appLabels, nodeName, 2));
        running.forEach(pod -> assertNotNull(pod.getStatus().getPodIP(), "pod IP of " + pod.getMetadata().getName()));
        await("PDB disruptionsAllowed = 1", () -> {
          PodDisruptionBudget pdb = client.policy().v1().podDisruptionBudget().inNamespace(namespace).withName("web")
              .get();
          return pdb.getStatus() != null && pdb.getStatus().getDisruptionsAllowed() == 1 ? pdb : null;
        });

        String evicted = running.getFirst().getMetadata().getName();
        assertTrue(client.pods().inNamespace(namespace).withName(evicted).evict(), "eviction of " + evicted);

        await(evicted + " gone", () -> client.pods().inNamespace(namespace).withName(evicted).get() == null
            ? Boolean.TRUE : null);
        List<Pod> afterEviction = await("a replacement Running beside the survivor",
            () -> runningOn(client, namespace, appLabels, nodeName, 2));
        Set<String> names = afterEviction.stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
        assertTrue(!names.contains(evicted), "evicted pod still listed: " + names);
      } finally {
        client.namespaces().withName(namespace).delete();
        client.nodes().withName(nodeName).delete();
      }
    }
  }

  /** A Node as Farrier's simulated cloud creates it: annotated for kwok, with capacity and a kubelet version. */
  private static Node simulatedNode(String name) {
    Map<String, Quantity> capacity = Map.of("cpu", new Quantity("4"), "memory", new Quantity("16Gi"),
        "pods", new Quantity("110"));
    return new NodeBuilder()
        .withNewMetadata().withName(name)
          .addToAnnotations("kwok.x-k8s.io/node", "fake")
          .addToLabels("kubernetes.io/hostname", name)
        .endMetadata()
        .withNewStatus()
          .withCapacity(capacity).withAllocatable(capacity)
          .withNewNodeInfo().withKubeletVersion(KUBELET_VERSION).withArchitecture("amd64")
            .withOperatingSystem("linux").endNodeInfo()
        .endStatus()
        .build();
  }

  private static Deployment deployment(Map<String, String> labels, String nodeName) {
    return new DeploymentBuilder()
        .withNewMetadata().withName("web").endMetadata()
        .withNewSpec().withReplicas(2)
          .withNewSelector().withMatchLabels(labels).endSelector()
          .withNewTemplate()
            .withNewMetadata().withLabels(labels).endMetadata()
            .withNewSpec()
              .withNodeSelector(Map.of("kubernetes.io/hostname", nodeName))
              .addNewContainer().withName("app").withImage("registry.k8s.io/pause:3.10")
                .withNewResources().addToRequests("cpu", new Quantity("1")).endResources()
              .endContainer()
            .endSpec()
          .endTemplate()
        .endSpec()
        .build();
  }

  private static PodDisruptionBudget pdb(Map<String, String> labels) {
    return new PodDisruptionBudgetBuilder()
        .withNewMetadata().withName("web").endMetadata()
        .withNewSpec().withMinAvailable(new IntOrString(1)).withNewSelector().withMatchLabels(labels).endSelector()
        .endSpec()
        .build();
  }

  /** The pods if exactly {@code count} are Running, Ready and not terminating on the node, else null. */
  private static List<Pod> runningOn(KubernetesClient client, String namespace, Map<String, String> labels,
      String nodeName, int count) {
    List<Pod> pods = client.pods().inNamespace(namespace).withLabels(labels).list().getItems();
    List<Pod> running = pods.stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .filter(p -> nodeName.equals(p.getSpec().getNodeName()))
        .filter(p -> "Running".equals(p.getStatus().getPhase()))
        .filter(p -> p.getStatus().getConditions().stream()
            .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")))
        .toList();
    return running.size() == count && pods.size() == count ? running : null;
  }

  /** Polls {@code probe} until it gives a value (not null), for at most two minutes; other ITs here use it too. */
  static <T> T await(String what, Supplier<T> probe) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      T value = probe.get();
      if (value != null) {
        return value;
      }
      TimeUnit.MILLISECONDS.sleep(250);
    }
    throw new AssertionError("timed out after " + WAIT.toSeconds() + "s waiting for " + what);
  }
}

package dev.farrier.activities.kube;

import static org.junit.jupiter.api.Assertions.fail;

import dev.farrier.activities.crd.Manifests;
import dev.farrier.localstack.LocalStack;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;

/** What the Kubernetes integration tests share: a client on the local stack, the CRDs, kwok nodes, waiting. */
public final class KubeTestSupport {
  /** kwok plays the kubelet of nodes with this annotation (the local stack starts it with that selector). */
  static final String KWOK_ANNOTATION = "kwok.x-k8s.io/node";
  private static final Duration WAIT = Duration.ofSeconds(60);

  private KubeTestSupport() {}

  public static KubernetesClient client(LocalStack stack) {
    return client(stack, builder -> {});
  }

  /** A client of the stack whose HTTP client {@code http} configures further (an interceptor, say). */
  public static KubernetesClient client(LocalStack stack, Consumer<HttpClient.Builder> http) {
    try {
      Config config = Config.fromKubeconfig(Files.readString(stack.kubeconfig()));
      return new KubernetesClientBuilder().withConfig(config).withHttpClientBuilderConsumer(http).build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Applies deploy/crds (server-side, so every test class may) and waits until each is Established. */
  public static void installCrds(KubernetesClient client) {
    for (Path file : crdFiles()) {
      CustomResourceDefinition crd = Manifests.SERIALIZATION.unmarshal(Manifests.text(file), CustomResourceDefinition.class);
      client.apiextensions().v1().customResourceDefinitions().resource(crd).forceConflicts().serverSideApply();
      awaitTrue("CRD " + crd.getMetadata().getName() + " established", () -> {
        CustomResourceDefinition stored = client.apiextensions().v1().customResourceDefinitions()
            .withName(crd.getMetadata().getName()).get();
        return stored.getStatus() != null && stored.getStatus().getConditions() != null && stored.getStatus().getConditions().stream()
            .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
      });
    }
  }

  /** Every object of a manifest file (kinds the client has no class for come back generic). */
  static List<HasMetadata> load(KubernetesClient client, Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return client.load(in).items();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Path> crdFiles() {
    try (Stream<Path> files = Files.list(Manifests.CRDS)) {
      return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Server-side applies every object of a YAML text. */
  public static void apply(KubernetesClient client, String yaml) {
    client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).forceConflicts().serverSideApply();
  }

  /** An AL2 EC2NodeClass selecting one AMI by id. */
  public static String nodeClassYaml(String name, String amiId) {
    return """
        apiVersion: karpenter.k8s.aws/v1
        kind: EC2NodeClass
        metadata:
          name: %s
        spec:
          amiFamily: AL2
          amiSelectorTerms:
            - id: %s
          role: KarpenterNodeRole-test
          subnetSelectorTerms:
            - tags:
                karpenter.sh/discovery: test
          securityGroupSelectorTerms:
            - tags:
                karpenter.sh/discovery: test
        """.formatted(name, amiId);
  }

  /** An amd64 on-demand NodePool of {@code nodeClass} whose nodes carry the label {@code intent=<name>}. */
  public static String nodePoolYaml(String name, String nodeClass) {
    return """
        apiVersion: karpenter.sh/v1
        kind: NodePool
        metadata:
          name: %s
        spec:
          template:
            metadata:
              labels:
                intent: %s
            spec:
              nodeClassRef:
                group: karpenter.k8s.aws
                kind: EC2NodeClass
                name: %s
              requirements:
                - key: kubernetes.io/arch
                  operator: In
                  values: ["amd64"]
                - key: karpenter.sh/capacity-type
                  operator: In
                  values: ["on-demand"]
        """.formatted(name, name, nodeClass);
  }

  /** A NodeOverlay named {@code name} whose spec is {@code spec} (YAML lines, not indented). */
  public static String nodeOverlayYaml(String name, String spec) {
    return """
        apiVersion: karpenter.sh/v1alpha1
        kind: NodeOverlay
        metadata:
          name: %s
        spec:
        %s""".formatted(name, spec.indent(2));
  }

  /**
   * A NodeOverlay of {@code weight} on {@code type} in NodePool {@code nodePool} only (so tests sharing the API server
   * plan on the cloud's prices), with the spec line {@code setting} ({@code price: "0.001"}).
   */
  public static String nodeOverlayYaml(String name, int weight, String nodePool, String type, String setting) {
    return nodeOverlayYaml(name, """
        weight: %d
        requirements:
          - key: karpenter.sh/nodepool
            operator: In
            values: ["%s"]
          - key: node.kubernetes.io/instance-type
            operator: In
            values: ["%s"]
        %s
        """.formatted(weight, nodePool, type, setting));
  }

  public static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** A node kwok keeps Ready, with room for a few pods. */
  static Node kwokNode(String name, String providerId) {
    return new NodeBuilder()
        .withNewMetadata()
          .withName(name)
          .withAnnotations(Map.of(KWOK_ANNOTATION, "fake"))
          .withLabels(Map.of("kubernetes.io/hostname", name, "type", "kwok"))
        .endMetadata()
        .withNewSpec().withProviderID(providerId).endSpec()
        .withNewStatus()
          .withCapacity(Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"), "pods", new Quantity("110")))
          .withAllocatable(Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"), "pods", new Quantity("110")))
        .endStatus()
        .build();
  }

  /** Creates the node, and its status too (the create ignores status for nodes' capacity only on some versions). */
  static Node createNode(KubernetesClient client, Node node) {
    Node created = client.nodes().resource(node).create();
    if (created.getStatus() == null || created.getStatus().getAllocatable() == null
        || created.getStatus().getAllocatable().isEmpty()) {
      created.setStatus(node.getStatus());
      created = client.nodes().resource(created).updateStatus();
    }
    return created;
  }

  /** A kwok node named {@code name}, created and waited for until Ready. */
  public static Node createKwokNode(KubernetesClient client, String name) {
    Node node = createNode(client, kwokNode(name, "kwok://" + name));
    awaitTrue("node " + name + " Ready", () -> {
      Node now = client.nodes().withName(name).get();
      return now != null && now.getStatus() != null && now.getStatus().getConditions() != null
          && now.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    });
    return node;
  }

  public static void deleteQuietly(Runnable delete) {
    try {
      delete.run();
    } catch (KubernetesClientException ignored) {
      // Cleanup only: the object may be gone already, and a leftover does not affect other tests (unique names).
    }
  }

  /** Waits for a condition of the cluster (not a timing assertion: the bound only stops a hung test). */
  public static void awaitTrue(String what, Supplier<Boolean> condition) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      if (Boolean.TRUE.equals(condition.get())) {
        return;
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted waiting for " + what);
      }
    }
    fail("timed out waiting for " + what);
  }
}

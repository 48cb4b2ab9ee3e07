package dev.farrier.sandbox;

import dev.farrier.activities.cloud.simulated.CloudCall;
import dev.farrier.activities.cloud.simulated.CloudCallLog;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One provisioning-latency measurement on a running sandbox: creates {@code pods} pending pods at once and, once
 * every one is bound, measures for each the time from its creation (the harness's clock when the API server
 * accepted it) to the simulated cloud's launch call ({@link CloudCall.Operation#CREATE} in the call log, same host
 * clock) of the NodeClaim whose node it runs on.
 */
final class ProvisioningLatency {
  static final String NAMESPACE = "bench";
  static final String NODE_POOL = "bench";

  /**
   * @param millis      one latency per pod whose claim was launched after it was created
   * @param earlier     pods the kube-scheduler bound to a node launched for pods created before them (no latency of
   *                    their own; only possible when creating the pods spans two batches)
   * @param claims      claims launched
   */
  record Result(int pods, List<Double> millis, int earlier, int claims, Duration creating) {}

  private final SandboxEnvironment env;
  private final Duration timeout;

  ProvisioningLatency(SandboxEnvironment env, Duration timeout) {
    this.env = env;
    this.timeout = timeout;
  }

  /** Applies the bench NodeClass and NodePool and waits until Farrier reports the pool Ready. */
  void prepare(String amd64Ami, String arm64Ami) {
    String manifest = resource("/sandbox/latency-bench.yaml").replace("<<CLUSTER_NAME>>", env.cluster())
        .replace("<<AMD64AMI>>", amd64Ami).replace("<<ARM64AMI>>", arm64Ami);
    env.kube().load(new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8))).serverSideApply();
    env.kube().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .serverSideApply();
    Await.until("nodepool " + NODE_POOL + " Ready", timeout, () -> ready(env.kube()
        .genericKubernetesResources("karpenter.sh/v1", "NodePool").withName(NODE_POOL).get()), () -> "");
  }

  Result measure(int pods) throws InterruptedException {
    Map<String, Instant> created = new ConcurrentHashMap<>();
    Instant start = Instant.now();
    // Several writers, so 1,000 pods reach the API server within a second or two, as a scaled-up Deployment's would.
    try (ExecutorService writers = Executors.newFixedThreadPool(8)) {
      List<Future<?>> done = new ArrayList<>();
      for (int i = 0; i < pods; i++) {
        String name = "pending-" + i;
        done.add(writers.submit(() -> {
          env.kube().pods().inNamespace(NAMESPACE).resource(pod(name)).create();
          created.put(name, Instant.now());
        }));
      }
      for (Future<?> f : done) {
        try {
          f.get();
        } catch (java.util.concurrent.ExecutionException e) {
          throw new IllegalStateException("creating a pending pod failed", e.getCause());
        }
      }
    }
    Duration creating = Duration.between(start, Instant.now());
    Map<String, String> nodeOfPod = Await.until("all " + pods + " pods bound", timeout, () -> {
      Map<String, String> bound = new HashMap<>();
      for (Pod p : env.kube().pods().inNamespace(NAMESPACE).list().getItems()) {
        if (p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty()) {
          bound.put(p.getMetadata().getName(), p.getSpec().getNodeName());
        }
      }
      return bound.size() == pods ? bound : null;
    }, () -> "");
    Map<String, String> claimOfNode = new HashMap<>();
    for (GenericKubernetesResource claim : env.kube().genericKubernetesResources("karpenter.sh/v1", "NodeClaim").list().getItems()) {
      Object status = claim.getAdditionalProperties().get("status");
      if (status instanceof Map<?, ?> s && s.get("nodeName") != null) {
        claimOfNode.put(Objects.toString(s.get("nodeName")), claim.getMetadata().getName());
      }
    }
    Map<String, Instant> launched = new HashMap<>();
    for (CloudCall call : new CloudCallLog(env.cloudDir()).read(CloudCall.Operation.CREATE)) {
      launched.putIfAbsent(call.nodeClaim(), call.time());
    }
    List<Double> millis = new ArrayList<>();
    int earlier = 0;
    for (var e : nodeOfPod.entrySet()) {
      Instant launch = launched.get(claimOfNode.get(e.getValue()));
      if (launch == null) {
        throw new IllegalStateException("pod " + e.getKey() + " runs on node " + e.getValue() + " without a launch call");
      }
      Duration latency = Duration.between(created.get(e.getKey()), launch);
      if (latency.isNegative()) {
        earlier++;
      } else {
        millis.add(latency.toNanos() / 1e6);
      }
    }
    return new Result(pods, millis, earlier, launched.size(), creating);
  }

  private static Pod pod(String name) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace(NAMESPACE).addToLabels("app", "latency-bench")
        .endMetadata().withNewSpec().addNewContainer().withName("pause").withImage("public.ecr.aws/eks-distro/kubernetes/pause:3.7")
        .withNewResources().addToRequests("cpu", new Quantity("250m")).addToRequests("memory", new Quantity("256Mi"))
        .endResources().endContainer().endSpec().build();
  }

  @SuppressWarnings("unchecked")
  private static boolean ready(GenericKubernetesResource pool) {
    if (pool == null || !(pool.getAdditionalProperties().get("status") instanceof Map<?, ?> status)
        || !(status.get("conditions") instanceof List<?> conditions)) {
      return false;
    }
    return conditions.stream().map(c -> (Map<String, Object>) c)
        .anyMatch(c -> "Ready".equals(c.get("type")) && "True".equals(c.get("status")));
  }

  private static String resource(String path) {
    try (var in = ProvisioningLatency.class.getResourceAsStream(path)) {
      return new String(Objects.requireNonNull(in, path + " missing").readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

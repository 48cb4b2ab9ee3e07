package dev.farrier.sandbox.bench;

import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.sandbox.Await;
import dev.farrier.sandbox.NodePoolConditions;
import dev.farrier.activities.cloud.simulated.CloudCall;
import dev.farrier.activities.cloud.simulated.CloudCallLog;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One provisioning-latency measurement on a running sandbox: creates {@code pods} pending pods at once and, once every
 * one runs, measures for each, on this process's clock: from the moment it was seen marked Unschedulable by the
 * kube-scheduler (a watch, so not the condition's whole-second timestamp) to the simulated cloud's launch call
 * ({@link CloudCall.Operation#CREATE} in the call log, same host clock) of the NodeClaim whose node it runs on, and to
 * the moment it was seen Running and Ready; and from its creation to Unschedulable (the scheduler's part). Also, for
 * each pod, to the launch call of the first NodeClaim Farrier created for it ({@link PlannedPodsWatch}): Farrier's own
 * answer, whether or not the kube-scheduler then bound the pod to that claim's node or gave the room to another pod.
 */
final class ProvisioningLatency {
  static final String NAMESPACE = "bench";
  static final String NODE_POOL = "bench";
  static final String APP = "latency-bench";

  /**
   * @param toLaunch    per pod whose claim was launched after it was marked Unschedulable: milliseconds to that launch
   * @param toRunning   per pod seen Unschedulable: milliseconds from then to Running
   * @param toUnschedulable per pod seen Unschedulable: milliseconds from its creation to then
   * @param earlier     pods bound to a node launched before they were marked Unschedulable (only possible when creating
   *                    the pods spans two batches), or never seen Unschedulable
   * @param claims      claims launched
   * @param toPlannedLaunch per pod seen Unschedulable and then planned onto a new claim: milliseconds to the launch call
   *                    of the first claim created for it
   * @param unplanned   pods seen Unschedulable that no claim launched since was created for: they went to room already
   *                    there or in flight
   */
  record Result(int pods, List<Double> toLaunch, List<Double> toRunning, List<Double> toUnschedulable, int earlier, int claims,
      Duration creating, List<Double> toPlannedLaunch, int unplanned) {}

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
    Await.until("nodepool " + NODE_POOL + " Ready", timeout, () -> NodePoolConditions.isTrue(env.kube(), NODE_POOL, "Ready"),
        () -> "");
  }

  /** Measures {@code pods} pending pods and writes what was seen of each to {@code podsFile} (tab-separated). */
  Result measure(int pods, Path podsFile) throws InterruptedException, IOException {
    Instant start = Instant.now();
    Map<String, Instant> created;
    Map<String, PodWatch.Seen> seen;
    try (var watch = new PodWatch(env.kube(), NAMESPACE, APP); var claims = new PlannedPodsWatch(env.kube())) {
      // Several writers, so 1,000 pods reach the API server within a second or two, as a scaled-up Deployment's would.
      created = PodWriter.create(env.kube(), new PodWriter.Shape(NAMESPACE, "pending", APP, "250m", "256Mi"), pods, 8);
      Duration creating = Duration.between(start, Instant.now());
      Await.until("all " + pods + " pods running", timeout, () -> watch.running() == pods, () -> watch.running() + " running");
      seen = watch.seen();
      return result(pods, created, seen, creating, claims.planned(), podsFile);
    }
  }

  private Result result(int pods, Map<String, Instant> created, Map<String, PodWatch.Seen> seen, Duration creating,
      Map<String, Set<String>> planned, Path podsFile) throws IOException {
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
    Map<String, Instant> plannedLaunch = PlannedPodsWatch.firstLaunch(planned, launched);
    List<Double> toLaunch = new ArrayList<>();
    List<Double> toRunning = new ArrayList<>();
    List<Double> toUnschedulable = new ArrayList<>();
    List<Double> toPlannedLaunch = new ArrayList<>();
    int earlier = 0;
    int unplanned = 0;
    List<String> rows = new ArrayList<>(List.of(
        "pod\tcreated\tunschedulable\tbound\tnode\tnode's claim launched\tfirst planned claim launched\trunning"));
    for (var e : seen.entrySet()) {
      PodWatch.Seen pod = e.getValue();
      Instant launch = launched.get(claimOfNode.get(pod.node()));
      Instant answer = plannedLaunch.get(pod.uid());
      rows.add(String.join("\t", e.getKey(), epochMillis(created.get(e.getKey())), epochMillis(pod.unschedulable()),
          epochMillis(pod.bound()), Objects.toString(pod.node(), ""), epochMillis(launch), epochMillis(answer),
          epochMillis(pod.running())));
      if (pod.unschedulable() != null) {
        if (answer == null || answer.isBefore(pod.unschedulable())) {
          unplanned++;
        } else {
          toPlannedLaunch.add(millis(pod.unschedulable(), answer));
        }
      }
      if (launch == null) {
        throw new IllegalStateException("pod " + e.getKey() + " runs on node " + pod.node() + " without a launch call");
      }
      if (pod.unschedulable() == null || launch.isBefore(pod.unschedulable())) {
        earlier++;
        continue;
      }
      toLaunch.add(millis(pod.unschedulable(), launch));
      toRunning.add(millis(pod.unschedulable(), pod.running()));
      toUnschedulable.add(millis(created.get(e.getKey()), pod.unschedulable()));
    }
    Files.write(podsFile, rows);
    return new Result(pods, toLaunch, toRunning, toUnschedulable, earlier, launched.size(), creating, toPlannedLaunch, unplanned);
  }

  private static String epochMillis(Instant at) {
    return at == null ? "" : Long.toString(at.toEpochMilli());
  }

  private static double millis(Instant from, Instant to) {
    return Duration.between(from, to).toNanos() / 1e6;
  }

  private static String resource(String path) {
    try (var in = ProvisioningLatency.class.getResourceAsStream(path)) {
      return new String(Objects.requireNonNull(in, path + " missing").readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

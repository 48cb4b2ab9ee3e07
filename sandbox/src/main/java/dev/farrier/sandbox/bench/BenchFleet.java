package dev.farrier.sandbox.bench;

import dev.farrier.sandbox.Await;
import dev.farrier.sandbox.PoolClaims;
import dev.farrier.sandbox.SandboxEnvironment;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * The fleet the fleet benchmark rolls ({@code sandbox/fleet-bench.yaml}): {@code replicas} nodes of NodePool
 * {@code fleet-bench}, one pod each, under a disruption budget; provisioned by Farrier from pending pods, then rolled to
 * another AMI release by drift or by {@code farrier upgrade}. Watches its Nodes from creation to close
 * ({@link NodeWatch}).
 */
final class BenchFleet implements AutoCloseable {
  static final String NODE_POOL = "fleet-bench";
  static final String NODE_CLASS = "fleet-bench";
  static final String APP = "fleet-bench";
  static final String NAMESPACE = "default";
  static final String FIRST_RELEASE = "al2023@v20251020";
  static final String NEXT_RELEASE = "al2023@v20251103";

  /** A moment of a roll: seconds since it began, and how many fleet nodes were on the images it rolls to. */
  record Sample(double seconds, int onTarget) {}

  private final SandboxEnvironment env;
  private final int replicas;
  private final Duration timeout;
  private final NodeWatch nodes;

  BenchFleet(SandboxEnvironment env, int replicas, Duration timeout) {
    this.env = env;
    this.replicas = replicas;
    this.timeout = timeout;
    this.nodes = new NodeWatch(env.kube(), NODE_POOL);
  }

  /** Registered-to-Ready milliseconds of the fleet's nodes registered at or after {@code since}. */
  List<Long> nodeReadyMillisSince(Instant since) {
    return nodes.readyWaitsSince(since);
  }

  int replicas() {
    return replicas;
  }

  /** Applies the fleet with {@code budget} and waits until every pod is Ready on a node of its own; returns node -> image. */
  Map<String, String> provision(String budget) {
    String manifest = resource().replace("<<CLUSTER_NAME>>", env.cluster()).replace("<<REPLICAS>>", Integer.toString(replicas))
        .replace("<<BUDGET>>", budget);
    env.kube().load(new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8))).serverSideApply();
    // Settled: no claim still launching (or left over, empty, waiting for consolidation), or the roll would count it.
    return Await.until(replicas + " " + APP + " pods Ready, one per node, and no other claim", timeout, () -> {
      var claims = claims();
      return readyNodes().size() == replicas && claims.imagesByNode().size() == replicas && claims.live() == replicas
          ? claims.imagesByNode() : null;
    }, this::diagnostics);
  }

  /** Points the EC2NodeClass at {@code alias}, as a user bumping the release does; the fleet drifts. */
  Instant switchTo(String alias) {
    Instant at = Instant.now();
    env.kube().genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass").withName(NODE_CLASS)
        .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(Map.of("spec",
            Map.of("amiSelectorTerms", List.of(Map.of("alias", alias))))));
    return at;
  }

  /**
   * Waits until every pod is Ready on a node of its own and no fleet node is on one of {@code oldImages}; adds to
   * {@code samples} the nodes on other images every two seconds, in seconds from {@code since}.
   */
  List<Sample> awaitRolledOff(Set<String> oldImages, Instant since, List<Sample> samples) {
    Await.until("every " + APP + " pod Ready off the images " + oldImages, timeout, () -> {
      var images = imagesByNode();
      int onTarget = sample(images, oldImages, since, samples);
      boolean done = onTarget == replicas && images.size() == replicas && readyNodes().size() == replicas;
      if (!done) {
        sleep(Duration.ofSeconds(2));
      }
      return done;
    }, this::diagnostics);
    return samples;
  }

  /** Adds to {@code samples} the nodes on other images than {@code oldImages} every two seconds while {@code busy} holds. */
  void sampleWhile(BooleanSupplier busy, Set<String> oldImages, Instant since, List<Sample> samples) {
    while (busy.getAsBoolean()) {
      try {
        sample(imagesByNode(), oldImages, since, samples);
      } catch (KubernetesClientException e) {
        // A sample missed is a gap in the figure; ending the run on one transient API error would lose the run.
        System.err.println("fleet sample skipped: " + e.getMessage());
      }
      sleep(Duration.ofSeconds(2));
    }
  }

  private static int sample(Map<String, String> images, Set<String> oldImages, Instant since, List<Sample> samples) {
    int onTarget = (int) images.values().stream().filter(i -> i != null && !oldImages.contains(i)).count();
    samples.add(new Sample(java.time.Duration.between(since, Instant.now()).toMillis() / 1000.0, onTarget));
    return onTarget;
  }

  /**
   * The fleet's Nodes now, by name, with the image their NodeClaim launched. Bounded by {@link #READ_BOUND}: on the
   * loaded 2 cores a list once never completed (its response body stalled after the headers, which fabric8's request
   * timeout does not cover), and the run waited on it for minutes; a read that takes longer fails, and the caller
   * skips a sample or looks again.
   */
  Map<String, String> imagesByNode() {
    var read = java.util.concurrent.CompletableFuture.supplyAsync(() -> claims().imagesByNode(), READS);
    try {
      return read.get(READ_BOUND.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      read.cancel(true);
      throw new KubernetesClientException("no answer from the API server within " + READ_BOUND.toSeconds() + "s");
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The longest {@link #imagesByNode} waits for the API server. */
  private static final Duration READ_BOUND = Duration.ofSeconds(15);
  /** Where the bounded reads run: daemon threads, so a read that never returns does not keep the benchmark alive. */
  private static final java.util.concurrent.ExecutorService READS = java.util.concurrent.Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "bench-fleet-read");
    t.setDaemon(true);
    return t;
  });

  private PoolClaims claims() {
    return PoolClaims.read(env.kube(), NODE_POOL);
  }

  /** The distinct nodes the fleet's Ready pods run on. */
  private Set<String> readyNodes() {
    Set<String> nodes = new HashSet<>();
    for (Pod p : env.kube().pods().inNamespace(NAMESPACE).withLabel("app", APP).list().getItems()) {
      if (p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null && p.getStatus().getConditions() != null
          && p.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()))) {
        nodes.add(p.getSpec().getNodeName());
      }
    }
    return nodes;
  }

  String diagnostics() {
    try {
      var claims = claims();
      Map<String, Long> byImage = new TreeMap<>();
      claims.imagesByNode().values().forEach(i -> byImage.merge(String.valueOf(i), 1L, Long::sum));
      return "fleet nodes by image " + byImage + ", pods Ready on " + readyNodes().size() + " nodes, " + claims.live() + " claims";
    } catch (RuntimeException e) {
      return "(diagnostics unavailable: " + e + ")";
    }
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String resource() {
    try (var in = BenchFleet.class.getResourceAsStream("/sandbox/fleet-bench.yaml")) {
      return new String(Objects.requireNonNull(in, "sandbox/fleet-bench.yaml missing").readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    nodes.close();
  }
}

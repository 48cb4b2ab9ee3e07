package dev.farrier.sandbox;

import dev.farrier.activities.cloud.aws.AwsClients;
import dev.farrier.activities.cloud.aws.AwsConnection;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.activities.cloud.simulated.SimulatedInterruptions;
import dev.farrier.localstack.HelmChart;
import dev.farrier.localstack.LocalStack;
import dev.farrier.localstack.WorkerSettingsFromChart;
import dev.farrier.workflows.FarrierSearchAttributes;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * A whole Farrier installation on the local stack: Temporal, Kubernetes with Farrier's CRDs, the simulated cloud's
 * state dir, an SQS interruption queue on moto, and Farrier workers as separate JVMs. The sandbox and the end-to-end
 * tests both stand on it.
 */
public final class SandboxEnvironment implements AutoCloseable {
  /** Farrier's CRD files, copied onto the class path from deploy/crds by the build. */
  static final List<String> CRDS = List.of("karpenter.sh_nodepools.yaml", "karpenter.sh_nodeclaims.yaml", "karpenter.k8s.aws_ec2nodeclasses.yaml",
      "karpenter.sh_nodeoverlays.yaml");

  static final String WORKER_NAMESPACE = "farrier";
  /** The worker's default {@code farrier.leader-election.name}. */
  static final String LEASE = "farrier-leader-election";
  static final String REGION = "us-east-1";
  /** Worker settings for garbage collection every 5 s with a grace of 20 s, so a test or scenario sees it act. */
  public static final Map<String, String> FAST_GC = Map.of("FARRIER_GC_INTERVAL", "5s", "FARRIER_GC_GRACE", "20s");

  private final String cluster;
  private final LocalStack stack;
  private final KubernetesClient kube;
  private final WorkflowServiceStubs stubs;
  private final WorkflowClient temporal;
  private final Path cloudDir;
  private final Path logDir;
  private final Path workerKubeconfig;
  private final AwsClients aws;
  private final String interruptionQueueUrl;
  private final List<WorkerProcess> workers = new ArrayList<>();
  private WorkerSettingsFromChart chart;

  private SandboxEnvironment(String cluster, LocalStack stack, Path runDir) throws IOException {
    this.cluster = cluster;
    this.stack = stack;
    this.kube = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(stack.kubeconfig()))).build();
    this.stubs = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder().setTarget(stack.temporalAddress()).build());
    this.temporal = WorkflowClient.newInstance(stubs);
    this.cloudDir = Files.createDirectories(runDir.resolve("cloud"));
    this.logDir = Files.createDirectories(runDir.resolve("logs"));
    this.workerKubeconfig = runDir.resolve("worker.kubeconfig");
    this.aws = new AwsClients(AwsConnection.emulator(REGION, stack.motoEndpoint()));
    this.interruptionQueueUrl = aws.sqs().createQueue(r -> r.queueName("farrier-interruption-" + cluster)).queueUrl();
  }

  /** Empties {@code dir} (a previous run's files) and creates it. */
  public static Path recreate(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> walk = Files.walk(dir)) {
        walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    return Files.createDirectories(dir);
  }

  /** Starts the local stack in {@code runDir} and installs Farrier's CRDs. */
  public static SandboxEnvironment start(Path runDir, String cluster, int temporalUiPort) throws IOException {
    return start(runDir, cluster, temporalUiPort, 0);
  }

  /**
   * As {@link #start(Path, String, int)}, with the scheduler's and controller-manager's request rate to the API server
   * raised to {@code controlPlaneQps} (0 keeps their defaults), for the scale benchmarks.
   */
  public static SandboxEnvironment start(Path runDir, String cluster, int temporalUiPort, int controlPlaneQps) throws IOException {
    Files.createDirectories(runDir);
    var stack = LocalStack.builder()
        .runDir(runDir.resolve("stack"))
        .temporalUiPort(temporalUiPort)
        .controlPlaneQps(controlPlaneQps)
        .searchAttributes(FarrierSearchAttributes.ALL.stream().map(k -> k.getName()).toList())
        .moto(true)
        .start();
    try {
      var env = new SandboxEnvironment(cluster, stack, runDir);
      env.installCrds();
      env.installWorkerRbac();
      return env;
    } catch (IOException | RuntimeException e) {
      stack.close();
      throw e;
    }
  }

  private void installCrds() throws IOException {
    for (var file : CRDS) {
      try (var in = Objects.requireNonNull(getClass().getResourceAsStream("/crds/" + file), "CRD " + file + " missing from the class path")) {
        var crd = kube.apiextensions().v1().customResourceDefinitions().load(in).item();
        kube.resource(crd).serverSideApply();
        kube.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
            .waitUntilCondition(SandboxEnvironment::established, 60, java.util.concurrent.TimeUnit.SECONDS);
      }
    }
  }

  /**
   * Renders the Helm chart as a user installs it, applies its RBAC (service account, cluster role, the leader
   * election's role) and writes a kubeconfig with a token of its service account: workers run with exactly the
   * permissions and the settings the chart gives them, not as admin, so the chart and the worker cannot drift apart.
   */
  private void installWorkerRbac() throws IOException {
    kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(WORKER_NAMESPACE).endMetadata().build()).serverSideApply();
    var rendered = HelmChart.forStack(stack, HelmChart.locate(Path.of(""))).template("farrier", WORKER_NAMESPACE, Map.of(
        "logFormat", "text",
        "settings", Map.of(
            "clusterName", cluster,
            "clusterEndpoint", stack.apiServerUrl(),
            "clusterCABundle", Base64.getEncoder().encodeToString(stack.caCertificatePem().getBytes(StandardCharsets.US_ASCII)),
            "serviceCIDR", LocalStack.SERVICE_CLUSTER_IP_RANGE,
            "region", REGION,
            "interruptionQueue", interruptionQueueUrl,
            "temporal", Map.of("address", stack.temporalAddress()))));
    chart = WorkerSettingsFromChart.of(rendered);
    chart.rbac().forEach(object -> kube.resource(object).serverSideApply());
    var token = kube.serviceAccounts().inNamespace(chart.namespace()).withName(chart.serviceAccountName())
        .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(48 * 3600L).endSpec().build())
        .getStatus().getToken();
    stack.writeKubeconfig(workerKubeconfig, "system:serviceaccount:" + chart.namespace() + ":" + chart.serviceAccountName(), token);
  }

  /**
   * What a worker process beside the stack needs that a pod gets otherwise: its service account (a kubeconfig), its
   * own network namespace (free ports for probes and metrics), IRSA (moto's endpoint and keys); and the sandbox's own
   * cloud, the simulated one, with a kubelet identity of its own.
   */
  private Map<String, String> outsideAPod() {
    var env = new LinkedHashMap<String, String>();
    env.put("FARRIER_KUBECONFIG", workerKubeconfig.toString());
    env.put("FARRIER_HEALTH_PORT", Integer.toString(stack.freePort()));
    env.put("FARRIER_METRICS_PORT", Integer.toString(stack.freePort()));
    env.put("FARRIER_AWS_ENDPOINT", stack.motoEndpoint());
    env.put("FARRIER_AWS_ACCESS_KEY_ID", "farrier-sandbox");
    env.put("FARRIER_AWS_SECRET_ACCESS_KEY", "farrier-sandbox");
    env.put("FARRIER_CLOUD", "simulated");
    env.put("FARRIER_SIMULATED_STATE_DIR", cloudDir.toString());
    env.put("FARRIER_SIMULATED_KUBELET_KUBECONFIG", stack.kubeconfig().toString());
    env.put("FARRIER_DRAIN_POLL_MAX", "5s");
    return env;
  }

  private static boolean established(CustomResourceDefinition crd) {
    return crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null
        && crd.getStatus().getConditions().stream().anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /** Starts one more worker JVM (its log: logs/worker-N.log) and waits until it polls. */
  public WorkerProcess startWorker() throws IOException, InterruptedException {
    return startWorker(Map.of());
  }

  /**
   * As {@link #startWorker()}, with settings of its own (environment variables such as {@code FARRIER_GC_GRACE}). A
   * pod has its own network namespace; a process beside the stack shares the machine's loopback, so its probe and
   * metrics ports are the stack's, reserved for it until the stack closes.
   */
  public WorkerProcess startWorker(Map<String, String> settings) throws IOException, InterruptedException {
    return startWorker(settings, true);
  }

  /**
   * A worker a benchmark measures: as {@link #startWorker()}, but it never records the integration tests' AOT cache
   * ({@link WorkerProcess}), which it would write on its way out.
   */
  public WorkerProcess startMeasuredWorker() throws IOException, InterruptedException {
    return startWorker(Map.of(), false);
  }

  private synchronized WorkerProcess startWorker(Map<String, String> settings, boolean mayRecordAot) throws IOException, InterruptedException {
    String pod = "worker-" + (workers.size() + 1);
    // The chart's container environment as the kubelet gives it to pod worker-N (POD_NAME names its Lease identity).
    var env = new LinkedHashMap<>(chart.environment(pod, chart.namespace()));
    env.putAll(outsideAPod());
    env.putAll(settings);
    var worker = WorkerProcess.start(env, logDir.resolve(pod + ".log"), chart.memoryLimitBytes(), mayRecordAot);
    stack.adopt(worker.pid());
    try {
      worker.awaitStarted(Duration.ofSeconds(90));
    } catch (IllegalStateException | IOException | InterruptedException e) {
      worker.close();
      throw e;
    }
    workers.add(worker);
    return worker;
  }

  public String cluster() {
    return cluster;
  }

  public LocalStack stack() {
    return stack;
  }

  public KubernetesClient kube() {
    return kube;
  }

  public WorkflowClient temporal() {
    return temporal;
  }

  public Path cloudDir() {
    return cloudDir;
  }

  /** The interruption queue on moto the workers poll. */
  public String interruptionQueueUrl() {
    return interruptionQueueUrl;
  }

  /** SQS, EC2, ... on the stack's moto. */
  public AwsClients aws() {
    return aws;
  }

  /** The simulated cloud's EventBridge: interrupts a spot instance and posts its warning to the interruption queue. */
  public SimulatedInterruptions interruptions() {
    return new SimulatedInterruptions(new SimulatedCloud(SimulatedCloudConfig.defaults(cloudDir)), aws.sqs(), interruptionQueueUrl);
  }

  /** The pod memory limit the chart gives a worker (what its heap share is taken of), if it sets one. */
  public java.util.OptionalLong workerMemoryLimitBytes() {
    return chart.memoryLimitBytes();
  }

  public List<WorkerProcess> workers() {
    return List.copyOf(workers);
  }

  /**
   * Starts worker {@code number} (1-based, as in its log's name) again with its settings, after stopping it with
   * SIGTERM if it still runs; waits until it polls.
   */
  public synchronized WorkerProcess restartWorker(int number) throws IOException, InterruptedException {
    var old = workers.get(number - 1);
    old.close();
    var fresh = old.again();
    stack.adopt(fresh.pid());
    workers.set(number - 1, fresh);
    fresh.awaitStarted(Duration.ofSeconds(90));
    return fresh;
  }

  /** Who holds the workers' Lease now (the worker running the loops outside workflows), or null. */
  public String leader() {
    var lease = kube.leases().inNamespace(WORKER_NAMESPACE).withName(LEASE).get();
    return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
  }

  @Override
  public void close() {
    for (var w : workers) {
      try {
        w.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    stubs.shutdownNow();
    aws.close();
    kube.close();
    stack.close();
  }
}

package dev.farrier.sandbox;

import dev.farrier.activities.cloud.aws.AwsClients;
import dev.farrier.activities.cloud.aws.AwsConnection;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.activities.cloud.simulated.SimulatedInterruptions;
import dev.farrier.localstack.LocalStack;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
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
  static final List<String> CRDS = List.of("karpenter.sh_nodepools.yaml", "karpenter.sh_nodeclaims.yaml", "karpenter.k8s.aws_ec2nodeclasses.yaml");

  static final String WORKER_NAMESPACE = "farrier";
  static final String WORKER_ACCOUNT = "farrier";
  /** The worker's default {@code farrier.leader-election.name}. */
  static final String LEASE = "farrier-leader-election";
  static final String REGION = "us-east-1";

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
    Files.createDirectories(runDir);
    var stack = LocalStack.builder()
        .runDir(runDir.resolve("stack"))
        .temporalUiPort(temporalUiPort)
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
   * Applies deploy/rbac and writes a kubeconfig with a token of the worker's service account: workers run with
   * exactly the permissions users grant them, not as admin.
   */
  private void installWorkerRbac() throws IOException {
    kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(WORKER_NAMESPACE).endMetadata().build()).serverSideApply();
    try (var in = Objects.requireNonNull(getClass().getResourceAsStream("/rbac/worker-rbac.yaml"), "worker RBAC missing from the class path")) {
      kube.load(in).serverSideApply();
    }
    var token = kube.serviceAccounts().inNamespace(WORKER_NAMESPACE).withName(WORKER_ACCOUNT)
        .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(48 * 3600L).endSpec().build())
        .getStatus().getToken();
    stack.writeKubeconfig(workerKubeconfig, "system:serviceaccount:" + WORKER_NAMESPACE + ":" + WORKER_ACCOUNT, token);
  }

  private static boolean established(CustomResourceDefinition crd) {
    return crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null
        && crd.getStatus().getConditions().stream().anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /** Starts one more worker JVM (its log: logs/worker-N.log) and waits until it polls. */
  public WorkerProcess startWorker() throws IOException, InterruptedException {
    return startWorker(Map.of());
  }

  /** As {@link #startWorker()}, with settings of its own (environment variables such as {@code FARRIER_GC_GRACE}). */
  public synchronized WorkerProcess startWorker(Map<String, String> settings) throws IOException, InterruptedException {
    var env = WorkerProcess.environment(cluster, stack.temporalAddress(), workerKubeconfig, stack.kubeconfig(), cloudDir);
    // As in a pod: the Lease lives in the worker's namespace, and each worker has a name of its own.
    env.put("FARRIER_LEADER_ELECTION_NAMESPACE", WORKER_NAMESPACE);
    env.put("FARRIER_LEADER_ELECTION_IDENTITY", "worker-" + (workers.size() + 1));
    env.putAll(settings);
    env.put("FARRIER_INTERRUPTION_QUEUE", interruptionQueueUrl);
    env.put("FARRIER_AWS_ENDPOINT", stack.motoEndpoint());
    env.put("FARRIER_AWS_ACCESS_KEY_ID", "farrier-sandbox");
    env.put("FARRIER_AWS_SECRET_ACCESS_KEY", "farrier-sandbox");
    var worker = WorkerProcess.start(env, logDir.resolve("worker-" + (workers.size() + 1) + ".log"));
    workers.add(worker);
    worker.awaitStarted(Duration.ofSeconds(90));
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

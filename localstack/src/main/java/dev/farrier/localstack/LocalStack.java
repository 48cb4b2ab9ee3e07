package dev.farrier.localstack;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Farrier's local stack: a real Temporal dev server and a real Kubernetes control plane (etcd, kube-apiserver,
 * kube-controller-manager, kube-scheduler, and kwok playing the kubelet of simulated nodes), all on free loopback
 * ports, started and stopped by this class. Longer than 400 lines on purpose: its processes start in the order they
 * depend on (etcd before the API server, the API server before the controllers and kwok), each awaited ready, and one
 * path closes whatever started when a step fails; the command lines are in {@link KubernetesCommands} and
 * {@link TemporalCommands}.
 *
 * <pre>{@code
 * try (LocalStack stack = LocalStack.builder().temporalUiPort(0)
 *     .searchAttributes(LocalStack.FARRIER_SEARCH_ATTRIBUTES).start()) {
 *   Config config = Config.fromKubeconfig(Files.readString(stack.kubeconfig()));       // fabric8
 *   WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
 *       WorkflowServiceStubsOptions.newBuilder().setTarget(stack.temporalAddress()).build());
 * }
 * }</pre>
 * Tests use {@link #shared()} through {@link LocalStackExtension} instead, so one stack serves a whole test JVM.
 *
 * <p>Nothing outlives the stack: {@link #close()} (also run by a shutdown hook) stops every process tree with
 * SIGTERM, then SIGKILL after a grace period, and a watchdog process does the same if the JVM dies without
 * running its hooks. Kubernetes Nodes annotated {@code kwok.x-k8s.io/node: fake} are kept Ready by kwok, which
 * also runs the pods bound to them and finishes the ones being deleted.
 */
public final class LocalStack implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LocalStack.class);

  /**
   * Farrier's search attributes, all Keyword; the same names as {@code dev.farrier.workflows.FarrierSearchAttributes}
   * (this module stays free of the Temporal SDK, so the names are repeated here).
   */
  public static final List<String> FARRIER_SEARCH_ATTRIBUTES = List.of(
      "FarrierCluster", "FarrierNodePool", "FarrierNode", "FarrierInstanceId", "FarrierReason", "FarrierPhase",
      "FarrierNodeClaim", "FarrierBlocker");

  /**
   * The SQLite pragmas the Temporal dev server opens its file with unless told otherwise: a write-ahead log synced at
   * checkpoints. SQLite's default rollback journal with a full sync on every commit cost the server about twice the
   * CPU per history event (docs/benchmarks/temporal-server.md); a killed process loses nothing, an OS
   * crash can lose the last commits.
   */
  public static final List<String> TEMPORAL_SQLITE_PRAGMAS = List.of("journal_mode=wal", "synchronous=NORMAL");

  private static final Duration STOP_GRACE = Duration.ofSeconds(10);
  private static final Object SHARED_LOCK = new Object();
  private static LocalStack shared;
  private static RuntimeException sharedFailure;

  private final Path runDir;
  private final boolean ownsRunDir;
  private final Path binDir;
  private final boolean temporalEnabled;
  private final boolean kubernetesEnabled;
  private final boolean motoEnabled;
  private final int requestedUiPort;
  private final List<String> searchAttributes;
  private final Duration startTimeout;
  private final int controlPlaneQps;
  private final List<String> sqlitePragmas;

  private final FreePorts freePorts = new FreePorts();
  private final List<ManagedProcess> processes = new CopyOnWriteArrayList<>();
  /** Processes started beside the stack and handed to it ({@link #adopt}), ended with it. */
  private final List<ProcessHandle> adopted = new CopyOnWriteArrayList<>();
  /** How each component that can be started again is started and awaited, by name. */
  private final Map<String, Runnable> restarts = new ConcurrentHashMap<>();
  private Watchdog watchdog;
  private Thread shutdownHook;
  private boolean closed;

  private TemporalCommands temporal;
  private KubernetesPorts kubernetesPorts;
  private ClusterFiles clusterFiles;
  private int motoPort;
  private Duration startupTime = Duration.ZERO;

  private LocalStack(Builder builder) {
    this.ownsRunDir = builder.runDir == null;
    this.runDir = (ownsRunDir ? createTempRunDir() : builder.runDir).toAbsolutePath();
    this.binDir = (builder.binDir == null ? defaultBinDir() : builder.binDir).toAbsolutePath();
    this.temporalEnabled = builder.temporal;
    this.kubernetesEnabled = builder.kubernetes;
    this.motoEnabled = builder.moto;
    this.requestedUiPort = builder.temporalUiPort;
    this.searchAttributes = List.copyOf(builder.searchAttributes);
    this.startTimeout = builder.startTimeout;
    this.controlPlaneQps = builder.controlPlaneQps;
    this.sqlitePragmas = builder.sqlitePragmas;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The one stack of this JVM, for tests: Temporal (with {@link #FARRIER_SEARCH_ATTRIBUTES}), Kubernetes and moto on
   * free ports, started on first use and closed by a shutdown hook. A failed start is remembered, so the next test fails
   * at once with the same cause instead of waiting for another start.
   */
  public static LocalStack shared() {
    synchronized (SHARED_LOCK) {
      if (sharedFailure != null) {
        throw new IllegalStateException("the shared local stack failed to start earlier", sharedFailure);
      }
      if (shared == null) {
        try {
          shared = builder().temporalUiPort(0).searchAttributes(FARRIER_SEARCH_ATTRIBUTES).moto(true).start();
        } catch (RuntimeException e) {
          sharedFailure = e;
          throw e;
        }
      }
      return shared;
    }
  }

  /** Where certificates, kubeconfigs, data and logs ({@code logs/<component>.log}) are. */
  public Path runDir() {
    return runDir;
  }

  public Path binDir() {
    return binDir;
  }

  /** The admin kubeconfig ({@code runDir/kubeconfig}), CA embedded; works with {@code kubectl --kubeconfig}. */
  public Path kubeconfig() {
    return requireKubernetes().adminKubeconfig();
  }

  /** {@code https://127.0.0.1:<port>}. */
  public String apiServerUrl() {
    requireKubernetes();
    return kubernetesPorts.apiServerUrl();
  }

  /** Bearer token of a cluster admin (group {@code system:masters}). */
  public String adminToken() {
    return requireKubernetes().adminToken();
  }

  /** PEM of the CA that signed the API server's certificate. */
  public String caCertificatePem() {
    return requireKubernetes().caPem();
  }

  /**
   * Writes a kubeconfig for this cluster that authenticates with {@code token} (e.g. a service account's, to run a
   * component with exactly its RBAC rather than as admin) and returns its path.
   */
  public Path writeKubeconfig(Path file, String user, String token) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, new Kubeconfig(apiServerUrl(), caCertificatePem(), user, token).render());
    return file;
  }

  /** The API server's version as it reports it ({@code GET /version}'s gitVersion, e.g. {@code v1.36.3}). */
  public String kubernetesVersion() {
    try (HttpProbes http = new HttpProbes(caCertificatePem())) {
      var response = http.get(apiServerUrl() + "/version", adminToken());
      String version = response.statusCode() == 200
          ? new ObjectMapper().readTree(response.body()).path("gitVersion").asText("") : "";
      if (version.isEmpty()) {
        throw new LocalStackException("kube-apiserver", "GET /version answered " + response.statusCode(), response.body());
      }
      return version;
    } catch (LocalStackException e) {
      throw e;
    } catch (Exception e) {
      throw new LocalStackException("kube-apiserver", "GET /version failed", e);
    }
  }

  /** The kubectl binary next to the other components. */
  public Path kubectl() {
    return binDir.resolve("kubectl");
  }

  /** The Temporal frontend, {@code 127.0.0.1:<port>}. */
  /**
   * Stops the Temporal dev server (SIGTERM, as an outage would look to its clients), keeping its database file; the
   * rest of the stack runs on. {@link #startTemporal()} brings it back on the same address with the same workflows.
   */
  public void stopTemporal() {
    stop(TEMPORAL);
  }

  /** Starts the Temporal dev server again after {@link #stopTemporal()} and waits until it serves. */
  public void startTemporal() {
    startAgain(TEMPORAL);
  }

  /** The components {@link #startAgain} can start again after a {@link #stop} or {@link #kill}. */
  public static final String TEMPORAL = "temporal";
  public static final String API_SERVER = "kube-apiserver";
  /** The simulated kubelets: while it is paused no node posts its status, as kubelets cut off from the API server. */
  public static final String KWOK = "kwok";

  /** Stops component {@code name} with SIGTERM (its data stays) and the rest of the stack runs on. */
  public synchronized void stop(String name) {
    var process = running(name);
    process.stop(STOP_GRACE);
    forget(process);
  }

  /** Ends component {@code name} with SIGKILL, as a crash does (its data stays); the rest of the stack runs on. */
  public synchronized void kill(String name) {
    var process = running(name);
    process.kill();
    forget(process);
  }

  /**
   * Starts component {@code name} ({@link #TEMPORAL} or {@link #API_SERVER}) again, after a {@link #stop} or a
   * {@link #kill}, on the same address with the same data, and waits until it serves.
   */
  public void startAgain(String name) {
    var start = restarts.get(name);
    if (start == null) {
      throw new IllegalArgumentException("component " + name + " cannot be started again; these can: " + restarts.keySet());
    }
    if (processes().containsKey(name)) {
      throw new IllegalStateException("component " + name + " still runs");
    }
    start.run();
  }

  /**
   * Freezes component {@code name} with SIGSTOP: its sockets stay open and it answers nothing, as a hung server or a
   * network partition looks to its clients. {@link #resume} thaws it.
   */
  public synchronized void pause(String name) {
    running(name).signal("STOP");
  }

  /** Thaws a {@link #pause}d component with SIGCONT. */
  public synchronized void resume(String name) {
    running(name).signal("CONT");
  }

  /**
   * Hands process {@code pid}, started beside the stack (a Farrier worker, say), to the stack: {@link #close()} ends it
   * with SIGTERM first (SIGKILL after the stop grace), and the watchdog ends it should this JVM die. So a sandbox
   * stopped by Ctrl-C or killed leaves no worker running against a stack that is gone. A process handed to a closed
   * stack is killed at once.
   */
  public synchronized void adopt(long pid) {
    if (closed) {
      // Started while the stack was closing (a worker restarted as Ctrl-C came): it would outlive it.
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      throw new IllegalStateException("the stack is closed; process " + pid + " killed");
    }
    ProcessHandle.of(pid).ifPresent(handle -> {
      adopted.removeIf(h -> !h.isAlive());
      adopted.add(handle);
      watchdog.guard(pid);
      // Forgotten the moment it exits (a worker killed by the chaos soak): the system may give its pid to another
      // process, which the watchdog must never signal.
      handle.onExit().thenRun(() -> watchdog.forget(pid));
    });
  }

  private void stopAdopted() {
    adopted.forEach(h -> watchdog.forget(h.pid()));
    List<ProcessHandle> alive = adopted.stream().filter(ProcessHandle::isAlive).toList();
    alive.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + STOP_GRACE.toNanos();
    for (ProcessHandle handle : alive) {
      try {
        handle.onExit().get(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
      } catch (TimeoutException | ExecutionException e) {
        handle.destroyForcibly();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        handle.destroyForcibly();
      }
    }
  }

  private ManagedProcess running(String name) {
    return processes.stream().filter(p -> p.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalStateException("no " + name + " runs in this stack"));
  }

  private void forget(ManagedProcess process) {
    watchdog.forget(process.pid());
    processes.remove(process);
  }

  /** The API server's {@code --service-cluster-ip-range}. */
  public static final String SERVICE_CLUSTER_IP_RANGE = ClusterFiles.SERVICE_CLUSTER_IP_RANGE;

  /** A loopback port free a moment ago and never handed out by this stack before (for processes beside it). */
  public int freePort() {
    return freePorts.next();
  }

  public String temporalAddress() {
    return requireTemporal().address();
  }

  /** {@code http://127.0.0.1:<ui port>}. */
  public String temporalUiUrl() {
    return "http://127.0.0.1:" + requireTemporal().uiPort();
  }

  /**
   * The moto server's endpoint ({@code http://127.0.0.1:<port>}) for the AWS SDK's endpoint override: EC2, SSM, SQS
   * and IAM in every region, with any credentials. One server is shared by everything using this stack, so tests
   * keep apart by unique names and tags.
   */
  public String motoEndpoint() {
    if (!motoEnabled) {
      throw new IllegalStateException("this stack runs without moto; start it with builder().moto(true)");
    }
    return "http://127.0.0.1:" + motoPort;
  }

  /** How long {@link Builder#start()} took until every component was ready. */
  public Duration startupTime() {
    return startupTime;
  }

  /** Component name to pid of every process this stack started and has not stopped, in start order. */
  public Map<String, Long> processes() {
    Map<String, Long> pids = new LinkedHashMap<>();
    processes.forEach(p -> pids.put(p.name(), p.pid()));
    return pids;
  }

  /** Every live process this stack is responsible for, descendants and the watchdog included. */
  List<ProcessHandle> processTree() {
    List<ProcessHandle> handles = new ArrayList<>();
    processes.forEach(p -> handles.addAll(p.tree()));
    if (watchdog != null) {
      ProcessHandle.of(watchdog.pid()).ifPresent(handles::add);
    }
    return handles;
  }

  private LocalStack start() {
    long started = System.nanoTime();
    requireBinaries();
    int uiPort = requestedUiPort == 0 ? freePorts.next() : requestedUiPort;
    if (temporalEnabled && requestedUiPort != 0 && !FreePorts.isFree(requestedUiPort)) {
      throw new LocalStackException("temporal", "UI port " + requestedUiPort
          + " on 127.0.0.1 is already in use (another sandbox still running?); stop it or choose another port", "");
    }
    try {
      Files.createDirectories(logs());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + logs(), e);
    }
    watchdog = Watchdog.start(logs().resolve("watchdog.log"));
    shutdownHook = new Thread(this::close, "farrier-localstack-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    try {
      ManagedProcess temporalServer = null;
      if (temporalEnabled) {
        temporal = new TemporalCommands(binDir, runDir, freePorts.next(), uiPort, searchAttributes, sqlitePragmas);
        temporalServer = launch(TEMPORAL, temporal.startDev());
        restarts.put(TEMPORAL, () -> awaitTemporal(launch(TEMPORAL, temporal.startDev())));
      }
      ManagedProcess moto = null;
      if (motoEnabled) {
        motoPort = freePorts.next();
        moto = launch("moto", List.of(binDir.resolve("moto_server").toString(), "-H", "127.0.0.1", "-p", Integer.toString(motoPort)));
      }
      if (kubernetesEnabled) {
        startKubernetes();
      }
      if (moto != null) {
        awaitMoto(moto);
      }
      if (temporalEnabled) {
        awaitTemporal(temporalServer);
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    startupTime = Duration.ofNanos(System.nanoTime() - started);
    log.info("local stack ready seconds={} runDir={} temporal={} apiServer={}",
        String.format("%.1f", startupTime.toMillis() / 1000.0), runDir,
        temporalEnabled ? temporal.address() : "off", kubernetesEnabled ? kubernetesPorts.apiServerUrl() : "off");
    return this;
  }

  private void startKubernetes() {
    kubernetesPorts = KubernetesPorts.pick(freePorts);
    clusterFiles = ClusterFiles.write(runDir, kubernetesPorts.apiServerUrl());
    KubernetesCommands commands = new KubernetesCommands(binDir, runDir, kubernetesPorts, clusterFiles, controlPlaneQps);
    try {
      Files.writeString(commands.kwokConfig(), KubernetesCommands.kwokConfiguration());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + commands.kwokConfig(), e);
    }
    String token = clusterFiles.adminToken();
    String api = kubernetesPorts.apiServerUrl();
    try (HttpProbes http = new HttpProbes(clusterFiles.caPem())) {
      ManagedProcess etcd = launch("etcd", commands.etcd());
      Readiness.await(etcd, startTimeout, "GET /health to report healthy",
          () -> http.get(kubernetesPorts.etcdUrl() + "/health", null).body().contains("\"health\":\"true\""));

      restarts.put(API_SERVER, () -> {
        try (HttpProbes probes = new HttpProbes(clusterFiles.caPem())) {
          awaitApiServer(launch(API_SERVER, commands.apiServer()), probes, api, token);
        }
      });
      awaitApiServer(launch(API_SERVER, commands.apiServer()), http, api, token);

      ManagedProcess controllerManager = launch("kube-controller-manager", commands.controllerManager());
      ManagedProcess scheduler = launch("kube-scheduler", commands.scheduler());
      ManagedProcess kwok = launch(KWOK, commands.kwok());
      // The default ServiceAccount appears once the controllers run; pods cannot be created before it exists.
      Readiness.await(controllerManager, startTimeout,
          "GET /healthz to answer 200 and the default ServiceAccount to exist",
          () -> http.ok("https://127.0.0.1:" + kubernetesPorts.controllerManager() + "/healthz", null)
              && http.ok(api + "/api/v1/namespaces/default/serviceaccounts/default", token));
      Readiness.await(scheduler, startTimeout, "GET /healthz to answer 200",
          () -> http.ok("https://127.0.0.1:" + kubernetesPorts.scheduler() + "/healthz", null));
      Readiness.await(kwok, startTimeout, "GET /healthz to answer 200",
          () -> http.ok("http://127.0.0.1:" + kubernetesPorts.kwok() + "/healthz", null));
    }
  }

  private void awaitApiServer(ManagedProcess apiServer, HttpProbes http, String api, String token) {
    Readiness.await(apiServer, startTimeout, "GET /readyz to answer 200", () -> http.ok(api + "/readyz", token));
  }

  private void awaitMoto(ManagedProcess server) {
    try (HttpProbes http = new HttpProbes(null)) {
      Readiness.await(server, startTimeout, "GET /moto-api/data.json to answer 200",
          () -> http.ok(motoEndpoint() + "/moto-api/data.json", null));
    }
  }

  private void awaitTemporal(ManagedProcess server) {
    List<String> probe = temporal.listSearchAttributes();
    Readiness.await(server, startTimeout, "the frontend to list search attributes " + searchAttributes, () -> {
      CommandLine.Result result = CommandLine.run(probe, Duration.ofSeconds(15));
      return result.succeeded() && searchAttributes.stream().allMatch(n -> result.output().contains('"' + n + '"'));
    });
  }

  /**
   * Starts one more process beside the stack (a controller to compare with Farrier, say) with {@code environment}
   * added to this JVM's, its output in {@code logs/<name>.log}, and waits until {@code readyUrl} answers 200 over plain
   * HTTP on loopback. The stack owns it from then on: {@link #close()} stops it with the rest, and the watchdog kills it
   * if this JVM dies. Fails with its log's tail if it exits or is not ready within the start timeout.
   *
   * @return its process id
   */
  public long startProcess(String name, List<String> command, Map<String, String> environment, URI readyUrl) {
    Objects.requireNonNull(readyUrl, "readyUrl");
    if (processes().containsKey(name)) {
      throw new IllegalArgumentException("a process named " + name + " already runs in this stack");
    }
    ManagedProcess process = launch(name, command, environment);
    try (HttpProbes http = new HttpProbes(null)) {
      Readiness.await(process, startTimeout, "GET " + readyUrl + " to answer 200", () -> http.ok(readyUrl.toString(), null));
    }
    return process.pid();
  }

  private ManagedProcess launch(String name, List<String> command) {
    return launch(name, command, Map.of());
  }

  /** Synchronized with {@link #close()}: a process is either stopped by it or never started after it. */
  private synchronized ManagedProcess launch(String name, List<String> command, Map<String, String> environment) {
    if (closed) {
      throw new LocalStackException(name, "the stack was closed while starting", "");
    }
    ManagedProcess process = ManagedProcess.start(name, command, logs().resolve(name + ".log"), Map.copyOf(environment));
    processes.add(process);
    watchdog.guard(process.pid());
    return process;
  }

  /**
   * Stops every component and waits until each process tree has exited: everything but etcd in parallel, then
   * etcd, so the API server shuts down against a live store. Idempotent; also run by the shutdown hook.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    removeShutdownHook();
    stopAdopted();
    List<RuntimeException> failures = new CopyOnWriteArrayList<>();
    List<ManagedProcess> first = processes.stream().filter(p -> !p.name().equals("etcd")).toList();
    List<ManagedProcess> last = processes.stream().filter(p -> p.name().equals("etcd")).toList();
    stopAll(first, failures);
    stopAll(last, failures);
    if (watchdog != null) {
      watchdog.close();
    }
    freePorts.close();
    if (ownsRunDir) {
      deleteData();
    }
    log.info("local stack stopped runDir={}", runDir);
    if (!failures.isEmpty()) {
      LocalStackException failure = new LocalStackException("local stack", "some processes did not stop", "");
      failures.forEach(failure::addSuppressed);
      throw failure;
    }
  }

  private void stopAll(List<ManagedProcess> group, List<RuntimeException> failures) {
    List<Thread> stoppers = new ArrayList<>();
    for (ManagedProcess process : group) {
      stoppers.add(Thread.ofPlatform().name("stop-" + process.name()).start(() -> {
        try {
          process.stop(STOP_GRACE);
          watchdog.forget(process.pid());
          processes.remove(process);
        } catch (RuntimeException e) {
          failures.add(e);
        }
      }));
    }
    for (Thread stopper : stoppers) {
      try {
        stopper.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failures.add(new LocalStackException("local stack", "interrupted while stopping", e));
      }
    }
  }

  private void removeShutdownHook() {
    if (shutdownHook == null || Thread.currentThread() == shutdownHook) {
      return;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      log.debug("JVM is shutting down, the hook will find the stack closed");
    }
  }

  /** A temp run dir's bulk (etcd's preallocated WAL, Temporal's SQLite file) goes; logs and certs stay. */
  private void deleteData() {
    for (String name : List.of("etcd", "temporal.db", "temporal.db-wal", "temporal.db-shm")) {
      Path path = runDir.resolve(name);
      if (!Files.exists(path)) {
        continue;
      }
      try (Stream<Path> tree = Files.walk(path)) {
        for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      } catch (IOException e) {
        log.warn("cannot delete local stack data path={} error={}", path, e.toString());
      }
    }
  }

  private void requireBinaries() {
    List<String> needed = new ArrayList<>();
    if (temporalEnabled) {
      needed.add("temporal");
    }
    if (kubernetesEnabled) {
      needed.addAll(List.of("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok"));
    }
    if (motoEnabled) {
      needed.add("moto_server");
    }
    for (String name : needed) {
      if (!Files.isExecutable(binDir.resolve(name))) {
        throw new LocalStackException(name, "no executable " + binDir.resolve(name)
            + "; run `make tools` (tools/install.sh) to install the local stack", "");
      }
    }
  }

  private ClusterFiles requireKubernetes() {
    if (clusterFiles == null) {
      throw new IllegalStateException("this local stack was built with kubernetes(false)");
    }
    return clusterFiles;
  }

  private TemporalCommands requireTemporal() {
    if (temporal == null) {
      throw new IllegalStateException("this local stack was built with temporal(false)");
    }
    return temporal;
  }

  private Path logs() {
    return runDir.resolve("logs");
  }

  private static Path createTempRunDir() {
    try {
      return Files.createTempDirectory("farrier-localstack-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temp run directory", e);
    }
  }

  /** {@code $FARRIER_CACHE/bin}, else {@code ~/.cache/farrier/bin}: where tools/install.sh puts the local stack. */
  public static Path defaultBinDir() {
    String cache = System.getenv("FARRIER_CACHE");
    Path root = cache != null && !cache.isBlank()
        ? Path.of(cache)
        : Path.of(System.getProperty("user.home"), ".cache", "farrier");
    return root.resolve("bin");
  }

  /** Configures and starts a {@link LocalStack}. */
  public static final class Builder {
    private Path runDir;
    private Path binDir;
    private boolean temporal = true;
    private boolean kubernetes = true;
    private boolean moto;
    private int temporalUiPort = 8233;
    private List<String> searchAttributes = List.of();
    private Duration startTimeout = Duration.ofSeconds(120);
    private int controlPlaneQps;
    private List<String> sqlitePragmas = TEMPORAL_SQLITE_PRAGMAS;

    private Builder() {}

    /** Where certificates, kubeconfigs, data and logs go; default a new temp dir whose data is deleted on close. */
    public Builder runDir(Path runDir) {
      this.runDir = Objects.requireNonNull(runDir);
      return this;
    }

    /** Where the binaries are; default {@code $FARRIER_CACHE/bin}, else {@code ~/.cache/farrier/bin}. */
    public Builder binDir(Path binDir) {
      this.binDir = Objects.requireNonNull(binDir);
      return this;
    }

    public Builder temporal(boolean enabled) {
      this.temporal = enabled;
      return this;
    }

    public Builder kubernetes(boolean enabled) {
      this.kubernetes = enabled;
      return this;
    }

    /** moto (EC2, SSM, SQS, IAM emulator) on a free port; off by default. */
    public Builder moto(boolean enabled) {
      this.moto = enabled;
      return this;
    }

    /** The Web UI port; 0 picks a free one. A busy fixed port fails the start before anything runs. */
    public Builder temporalUiPort(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      this.temporalUiPort = port;
      return this;
    }

    /** Search attributes registered, as Keyword, when Temporal starts. */
    public Builder searchAttributes(List<String> keywordNames) {
      for (String name : keywordNames) {
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
          throw new IllegalArgumentException("search attribute names are identifiers: " + name);
        }
      }
      this.searchAttributes = List.copyOf(keywordNames);
      return this;
    }

    /**
     * The request rate (per second; twice that as burst) the kube-scheduler and kube-controller-manager may send the
     * API server; 0 (the default) keeps theirs (50 and 20). The scale benchmarks raise it, so that binding thousands of
     * pods measures Farrier rather than the scheduler's client-side rate limiter.
     */
    public Builder controlPlaneQps(int qps) {
      if (qps < 0) {
        throw new IllegalArgumentException("qps must not be negative: " + qps);
      }
      this.controlPlaneQps = qps;
      return this;
    }

    /**
     * The Temporal dev server's SQLite pragmas, each {@code name=value} (default {@link #TEMPORAL_SQLITE_PRAGMAS}); an
     * empty list keeps SQLite's defaults. For the benchmark that compares them.
     */
    public Builder temporalSqlitePragmas(List<String> pragmas) {
      for (String pragma : pragmas) {
        if (!pragma.matches("[a-z_]+=[A-Za-z0-9_]+")) {
          throw new IllegalArgumentException("a pragma is name=value: " + pragma);
        }
      }
      this.sqlitePragmas = List.copyOf(pragmas);
      return this;
    }

    /** How long each component may take to become ready (default 120 s: the machine may be busy). */
    public Builder startTimeout(Duration timeout) {
      this.startTimeout = Objects.requireNonNull(timeout);
      return this;
    }

    /**
     * Starts the enabled components and waits until each is ready. On failure everything already started is
     * stopped and a {@link LocalStackException} names the component and ends with its log. Each component's port is
     * reserved for this stack across every JVM on the machine (see {@link FreePorts}), so stacks started side by
     * side never race for one.
     */
    public LocalStack start() {
      if (!temporal && !kubernetes && !moto) {
        throw new IllegalStateException("enable at least one of temporal, kubernetes and moto");
      }
      return new LocalStack(this).start();
    }
  }
}

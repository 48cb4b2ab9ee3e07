package dev.farrier.sandbox;

import dev.farrier.worker.WorkerMain;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * The Farrier worker as its own JVM, as users run it: the sandbox and the end-to-end tests start it, and the crash
 * test kills it with SIGKILL and starts another. Configuration goes in through environment variables only.
 */
public final class WorkerProcess implements AutoCloseable {
  private final Process process;
  private final Map<String, String> env;
  private final Path log;
  /** Where this process's part of the log begins (a restarted worker appends to the same file). */
  private final long logStart;
  private final OptionalLong memoryLimitBytes;
  /** The AOT cache this worker records (the first of the run's, see {@link WorkerAotCache}), null when none. */
  private final WorkerAotCache.Start recording;
  private boolean recordingDone;

  /** Whether it may record the AOT cache: not a worker a benchmark measures, whose exit would include writing it. */
  private final boolean mayRecord;

  private WorkerProcess(Process process, Map<String, String> env, Path log, long logStart, OptionalLong memoryLimitBytes,
      boolean mayRecord, WorkerAotCache.Start recording) {
    this.memoryLimitBytes = memoryLimitBytes;
    this.mayRecord = mayRecord;
    this.recording = recording;
    this.process = process;
    this.env = Map.copyOf(env);
    this.log = log;
    this.logStart = logStart;
  }

  /**
   * JVM options added after the chart's to every worker started (system property {@code farrier.worker.jvmOptions},
   * unset by default): a benchmark's lever, such as {@code -XX:TieredStopAtLevel=4} to give a worker C2 back.
   */
  private static final List<String> EXTRA_JVM_OPTIONS =
      List.of(System.getProperty("farrier.worker.jvmOptions", "").trim().split("\\s+")).stream().filter(o -> !o.isEmpty()).toList();

  /**
   * The worker's class path: the sandbox's runtime class path (the file the build names in the system property
   * {@code farrier.worker.classPathFile}, {@code sandbox/target/classpath.txt}, as {@code make sandbox} runs it), else
   * this JVM's. One class path for every module's integration tests lets them share one {@link WorkerAotCache}.
   */
  private static final String CLASS_PATH = workerClassPath();

  private static final Optional<WorkerAotCache> AOT = WorkerAotCache.configured(CLASS_PATH);

  private static String workerClassPath() {
    String file = System.getProperty("farrier.worker.classPathFile", "").trim();
    if (!file.isEmpty() && Files.isRegularFile(Path.of(file))) {
      try {
        String classPath = Files.readString(Path.of(file)).trim();
        if (!classPath.isEmpty()) {
          return classPath;
        }
      } catch (IOException e) {
        // this JVM's class path has everything the worker needs too
      }
    }
    return System.getProperty("java.class.path");
  }

  /** How long a worker recording the AOT cache may take to exit: it writes the cache first. */
  private static final Duration RECORDING_EXIT = Duration.ofMinutes(2);

  /**
   * Starts a worker JVM with this JVM's class path and the given environment (the chart's, with its JDK_JAVA_OPTIONS).
   * {@code memoryLimitBytes} plays the pod's memory limit: a JVM in a container takes the cgroup's limit for its
   * machine's memory, this one is told it with {@code -XX:MaxRAM}, so the chart's heap share means the same here.
   */
  public static WorkerProcess start(Map<String, String> env, Path log, OptionalLong memoryLimitBytes) throws IOException {
    return start(env, log, memoryLimitBytes, true);
  }

  /** As {@link #start(Map, Path, OptionalLong)}; {@code mayRecord} false for a worker a benchmark measures. */
  public static WorkerProcess start(Map<String, String> env, Path log, OptionalLong memoryLimitBytes, boolean mayRecord)
      throws IOException {
    Files.createDirectories(log.getParent());
    long logStart = Files.exists(log) ? Files.size(log) : 0;
    var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java));
    memoryLimitBytes.ifPresent(bytes -> command.add("-XX:MaxRAM=" + bytes));
    command.addAll(EXTRA_JVM_OPTIONS);
    var aot = AOT.map(cache -> cache.next(mayRecord));
    aot.ifPresent(a -> command.addAll(a.options()));
    command.addAll(List.of("--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED",
        "-cp", AOT.map(WorkerAotCache::classPath).orElse(CLASS_PATH), WorkerMain.class.getName()));
    var builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().putAll(env);
    Process process;
    try {
      process = builder.start();
    } catch (IOException | RuntimeException e) {
      aot.filter(a -> a.recording() != null).ifPresent(a -> AOT.orElseThrow().trained(a, false));
      throw e;
    }
    return new WorkerProcess(process, env, log, logStart, memoryLimitBytes, mayRecord,
        aot.filter(a -> a.recording() != null).orElse(null));
  }

  /** A new JVM with this one's settings and log (this one must have exited). */
  public WorkerProcess again() throws IOException {
    return start(env, log, memoryLimitBytes, mayRecord);
  }

  /** This worker's FARRIER_* settings. */
  public Map<String, String> environment() {
    return env;
  }

  /** Where its {@code /healthz} and {@code /readyz} answer. */
  public URI healthUrl() {
    return URI.create("http://127.0.0.1:" + env.get("FARRIER_HEALTH_PORT"));
  }

  /** Where its {@code /metrics} answers. */
  public URI metricsUrl() {
    return URI.create("http://127.0.0.1:" + env.get("FARRIER_METRICS_PORT"));
  }

  public long pid() {
    return process.pid();
  }

  public Path log() {
    return log;
  }

  public boolean alive() {
    return process.isAlive();
  }

  /** SIGKILL: no shutdown hook runs, exactly like a node dying under the worker pod. */
  public void kill9() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
    finishRecording(false);
  }

  /**
   * Once this worker exited: the AOT cache it recorded into place if it said it wrote it whole, else dropped (killed, or
   * it died, while writing it).
   */
  private synchronized void finishRecording(boolean exited) {
    if (recording != null && !recordingDone) {
      recordingDone = true;
      boolean written;
      try {
        written = exited && ownLog().contains(WorkerAotCache.writtenMessage(recording.recording()));
      } catch (IOException e) {
        written = false;
      }
      AOT.orElseThrow().trained(recording, written);
    }
  }

  /** Waits until the worker logged that it started, or fails with its log's tail. */
  public void awaitStarted(Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(log) && ownLog().contains("farrier worker started")) {
        return;
      }
      if (!process.isAlive()) {
        throw new IllegalStateException("worker exited with " + process.exitValue() + ":\n" + tail(40));
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("worker did not start within " + timeout + ":\n" + tail(40));
  }

  /** What this process wrote to the log (not its predecessors'). */
  public String ownLog() throws IOException {
    try (var in = Files.newInputStream(log)) {
      in.skipNBytes(Math.min(logStart, Files.size(log)));
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  /** The exit code, or -1 while it runs. */
  public int exitCode() {
    return process.isAlive() ? -1 : process.exitValue();
  }

  public String tail(int lines) throws IOException {
    if (!Files.exists(log)) {
      return "(no log)";
    }
    var all = Files.readAllLines(log);
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }

  /** SIGTERM, as Kubernetes stops a pod; waits for the JVM to exit (SIGKILL after 30 s, as a grace period would). */
  @Override
  public void close() throws InterruptedException {
    boolean exited = true;
    try {
      if (process.isAlive()) {
        process.destroy();
        exited = process.waitFor(recording == null ? 30 : RECORDING_EXIT.toSeconds(), TimeUnit.SECONDS);
        if (!exited) {
          process.destroyForcibly();
          process.waitFor(5, TimeUnit.SECONDS);
        }
      }
    } catch (InterruptedException e) {
      exited = false;
      process.destroyForcibly();
      throw e;
    } finally {
      finishRecording(exited);
    }
  }
}

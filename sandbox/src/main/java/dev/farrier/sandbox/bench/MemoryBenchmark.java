package dev.farrier.sandbox.bench;

import dev.farrier.sandbox.Await;
import dev.farrier.sandbox.NodePoolConditions;
import dev.farrier.sandbox.SandboxEnvironment;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code make bench}: the worker's memory as the fleet grows. For each size, a fresh sandbox and one worker JVM (with
 * the chart's JVM options, or {@code --jvm}); Farrier provisions {@code pods} pending pods, ten to an {@code m5.xlarge},
 * so the cluster ends with {@code pods / 10} Farrier nodes and claims; the worker's resident set and heap are read idle,
 * at their peak while it provisions, and once it has settled (its informers holding every pod, node and claim, its
 * planning rounds running over them).
 */
@Command(name = "memory-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
    description = "The worker's resident memory and heap with thousands of nodes and pods.")
public final class MemoryBenchmark implements Callable<Integer> {
  private static final String CLUSTER = "bench";
  private static final String NAMESPACE = "memory-bench";
  private static final int PODS_PER_NODE = 10;

  @Option(names = "--pods", split = ",", defaultValue = "10000,50000",
      description = "pending pods per run, ten per node (default ${DEFAULT-VALUE})")
  List<Integer> sizes;

  @Option(names = "--jvm", description = "the worker's JDK_JAVA_OPTIONS instead of the chart's")
  String jvm;

  @Option(names = "--settle", defaultValue = "PT90S", description = "how long the worker runs after the last pod is bound (default ${DEFAULT-VALUE})")
  Duration settle;


  @Option(names = "--run-dir", defaultValue = ".run/bench/memory", description = "the stacks' files (default ${DEFAULT-VALUE})")
  Path runDir;

  @Option(names = "--out", defaultValue = ".run/bench/memory.md", description = "the report (default ${DEFAULT-VALUE})")
  Path out;


  @CommandLine.Mixin
  BenchOptions options;

  /** One size's figures, bytes. */
  record Result(int pods, int nodes, double provisionSeconds, WorkerMemory.Snapshot idle, long peakRss,
      WorkerMemory.Snapshot settled, WorkerMemory.Snapshot live, String jvmOptions) {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new MemoryBenchmark()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    List<Result> results = new ArrayList<>();
    List<String> lines = new ArrayList<>(List.of("Worker memory on the sandbox (one worker, simulated cloud, scheduler and "
        + "controller-manager at " + options.qps + " QPS). " + options.label, "",
        "| pods | nodes | provisioned in s | RSS idle MiB | RSS peak MiB | RSS settled MiB | heap committed MiB | heap used MiB "
            + "| live heap MiB | metaspace MiB | classes | threads | JVM options |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"));
    for (int pods : sizes) {
      Result r = run(pods);
      results.add(r);
      String row = String.format(Locale.ROOT, "| %d | %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %d | %d | `%s` |",
          r.pods(), r.nodes(), r.provisionSeconds(), mib(r.idle().rss()), mib(r.peakRss()), mib(r.settled().rss()),
          mib(r.settled().heapCommitted()), mib(r.settled().heapUsed()), mib(r.live().heapUsed()), mib(r.live().metaspaceUsed()),
          r.live().classes(), r.live().threads(), r.jvmOptions());
      System.out.println(row);
      lines.add(row);
    }
    if (results.size() > 1) {
      lines.add("");
      lines.add("![memory against fleet size](figures/" + figure(results).getFileName() + ")");
    }
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.write(out, lines);
    lines.forEach(System.out::println);
    System.out.println("written to " + out);
    return 0;
  }

  private Result run(int pods) throws Exception {
    Path dir = SandboxEnvironment.recreate(runDir.resolve(Integer.toString(pods)).toAbsolutePath());
    System.out.printf("== %d pods: starting the local stack in %s%n", pods, dir);
    try (var env = SandboxEnvironment.start(dir, CLUSTER, 0, options.qps)) {
      var worker = env.startWorker(jvm == null ? Map.of() : Map.of("JDK_JAVA_OPTIONS", jvm));
      String jvmOptions = Objects.requireNonNullElse(worker.environment().get("JDK_JAVA_OPTIONS"), "(JVM defaults)");
      var memory = new WorkerMemory(worker);
      var kube = env.kube();
      String manifest = resource().replace("<<CLUSTER_NAME>>", env.cluster());
      kube.load(new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8))).serverSideApply();
      kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build()).serverSideApply();
      Await.until("nodepool memory-bench Ready", Duration.ofMinutes(5),
          () -> NodePoolConditions.isTrue(kube, "memory-bench", "Ready"), () -> "");
      Thread.sleep(20_000);
      var idle = memory.now();
      AtomicLong peak = new AtomicLong(idle.peakRss());
      Instant start = Instant.now();
      try (var watch = new PodWatch(kube, NAMESPACE, "memory-bench")) {
        PodWriter.create(kube, new PodWriter.Shape(NAMESPACE, "m", "memory-bench", "380m", "256Mi"), pods, 16);
        Await.until(pods + " pods bound", Duration.ofMinutes(60), () -> {
          peak.accumulateAndGet(memory.now().peakRss(), Math::max);
          return watch.bound() == pods;
        }, () -> watch.bound() + " bound");
      }
      double provisioned = Duration.between(start, Instant.now()).toMillis() / 1000.0;
      int nodes = kube.nodes().withLabel("karpenter.sh/nodepool", "memory-bench").list().getItems().size();
      System.out.printf("   %d pods bound on %d nodes in %.0fs; settling %s%n", pods, nodes, provisioned, settle);
      long until = System.nanoTime() + settle.toNanos();
      while (System.nanoTime() < until) {
        peak.accumulateAndGet(memory.now().peakRss(), Math::max);
        Thread.sleep(1_000);
      }
      var settled = memory.now();
      if (jvmOptions.contains("NativeMemoryTracking")) {
        Files.writeString(dir.resolve("native-memory.txt"), memory.jcmd("VM.native_memory", "summary"));
      }
      var live = memory.liveHeap();
      return new Result(pods, nodes, provisioned, idle, Math.max(peak.get(), settled.peakRss()), settled, live, jvmOptions);
    }
  }

  private Path figure(List<Result> results) throws java.io.IOException {
    var peak = new Charts.Line("RSS peak", results.stream().map(r -> new double[] {r.nodes(), mib(r.peakRss())}).toList());
    var settled = new Charts.Line("RSS settled", results.stream().map(r -> new double[] {r.nodes(), mib(r.settled().rss())}).toList());
    var live = new Charts.Line("live heap", results.stream().map(r -> new double[] {r.nodes(), mib(r.live().heapUsed())}).toList());
    return Charts.lines(options.figures.resolve("memory.png"), "Worker memory against fleet size (10 pods per node)", "nodes", "MiB",
        List.of(peak, settled, live));
  }

  private static double mib(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }

  private static String resource() throws java.io.IOException {
    try (var in = MemoryBenchmark.class.getResourceAsStream("/sandbox/memory-bench.yaml")) {
      return new String(Objects.requireNonNull(in, "sandbox/memory-bench.yaml missing").readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}

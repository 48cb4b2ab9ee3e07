package dev.farrier.sandbox.bench;

import dev.farrier.sandbox.BlueprintAmis;
import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.sandbox.Sandbox;
import dev.farrier.activities.cloud.simulated.AmiCatalog;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code make bench}: provisioning latency on the sandbox. For each pod count, a fresh local stack and Farrier worker on
 * the simulated cloud get that many pending pods at once; the table gives, per pod, the time from its being marked
 * Unschedulable to the launch call of the NodeClaim that holds it, to the launch call of the first NodeClaim Farrier
 * created for it, and to its running (median, p99, max), then everything is torn down.
 */
@Command(name = "latency-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Provisioning latency of pending pods on the sandbox.")
public final class LatencyBenchmark implements Callable<Integer> {
  private static final String CLUSTER = "bench";

  @Option(names = "--pods", split = ",", defaultValue = "1,100,1000,5000", description = "pending pods per run (default ${DEFAULT-VALUE})")
  List<Integer> sizes;


  @Option(names = "--run-dir", defaultValue = ".run/bench/latency", description = "the stacks' files (default ${DEFAULT-VALUE})")
  Path runDir;

  @Option(names = "--out", defaultValue = ".run/bench/latency.md", description = "the report (default ${DEFAULT-VALUE})")
  Path out;


  @CommandLine.Mixin
  BenchOptions options;

  public static void main(String[] args) {
    System.exit(new CommandLine(new LatencyBenchmark()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    List<String> lines = new ArrayList<>(List.of(
        "Provisioning latency (sandbox, simulated cloud, kube-scheduler and controller-manager at " + options.qps
            + " QPS): from a pod seen Unschedulable to the launch call of its NodeClaim, to that of the first NodeClaim Farrier "
            + "created for it, and to the pod Running. " + options.label, "",
        "| pending pods | pods measured | created -> Unschedulable median / p99 s | to launch call median s | p99 s | max s "
            + "| to Running median s | p99 s | max s | claims launched | creating the pods took s "
            + "| to the launch planned for it median / p99 / max s (pods; not planned onto a new claim) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"));
    lines.forEach(System.out::println);
    List<Charts.Line> launch = new ArrayList<>();
    List<Charts.Line> running = new ArrayList<>();
    List<Charts.Line> planned = new ArrayList<>();
    for (int pods : sizes) {
      var result = run(runDir.resolve(Integer.toString(pods)).toAbsolutePath(), pods);
      String row = row(result);
      System.out.println(row);
      lines.add(row);
      if (!result.toLaunch().isEmpty()) {
        launch.add(Charts.distribution(pods + " pods: to launch call", seconds(result.toLaunch())));
        running.add(Charts.distribution(pods + " pods: to Running", seconds(result.toRunning())));
      }
      if (!result.toPlannedLaunch().isEmpty()) {
        planned.add(Charts.distribution(pods + " pods: to the launch planned for it", seconds(result.toPlannedLaunch())));
      }
    }
    List<Charts.Line> all = new ArrayList<>(launch);
    all.addAll(planned);
    all.addAll(running);
    Path png = Charts.lines(options.figures.resolve("latency.png"), "Provisioning latency from Unschedulable", "seconds",
        "share of pods", all);
    lines.add("");
    lines.add("![latency distribution](figures/" + png.getFileName() + ")");
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.write(out, lines);
    System.out.println("written to " + out);
    return 0;
  }

  private ProvisioningLatency.Result run(Path dir, int pods) throws IOException, InterruptedException {
    SandboxEnvironment.recreate(dir);
    try (var env = SandboxEnvironment.start(dir, CLUSTER, 0, options.qps)) {
      env.startWorker();
      var amis = new BlueprintAmis(AmiCatalog.load(SimulatedCloudConfig.DEFAULT_KUBERNETES_VERSION));
      var latency = new ProvisioningLatency(env, Duration.ofMinutes(20));
      latency.prepare(amis.al2(Sandbox.FROM_VERSION, "amd64"), amis.al2(Sandbox.FROM_VERSION, "arm64"));
      return latency.measure(pods, dir.resolve("pods.tsv"));
    }
  }

  private static List<Double> seconds(List<Double> millis) {
    return millis.stream().map(m -> m / 1000).toList();
  }

  static String row(ProvisioningLatency.Result r) {
    String measured = r.earlier() == 0 ? Integer.toString(r.toLaunch().size()) : r.toLaunch().size() + " (" + r.earlier() + " on earlier claims)";
    String planned = plannedColumn(r);
    if (r.toLaunch().isEmpty()) {
      return String.format(Locale.ROOT, "| %d | %s | - | - | - | - | - | - | - | %d | %.2f | %s |", r.pods(), measured, r.claims(),
          r.creating().toMillis() / 1000.0, planned);
    }
    var unschedulable = Percentiles.of(seconds(r.toUnschedulable()));
    var launch = Percentiles.of(seconds(r.toLaunch()));
    var running = Percentiles.of(seconds(r.toRunning()));
    return String.format(Locale.ROOT, "| %d | %s | %.2f / %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %d | %.2f | %s |", r.pods(), measured,
        unschedulable.median(), unschedulable.p99(), launch.median(), launch.p99(), launch.max(), running.median(), running.p99(),
        running.max(), r.claims(), r.creating().toMillis() / 1000.0, planned);
  }

  private static String plannedColumn(ProvisioningLatency.Result r) {
    if (r.toPlannedLaunch().isEmpty()) {
      return "- (0; " + r.unplanned() + ")";
    }
    var planned = Percentiles.of(seconds(r.toPlannedLaunch()));
    return String.format(Locale.ROOT, "%.2f / %.2f / %.2f (%d; %d)", planned.median(), planned.p99(), planned.max(),
        r.toPlannedLaunch().size(), r.unplanned());
  }
}

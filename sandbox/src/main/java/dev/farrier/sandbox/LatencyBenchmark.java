package dev.farrier.sandbox;

import dev.farrier.activities.cloud.simulated.AmiCatalog;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code make bench}, part two: provisioning latency on the sandbox. For each pod count, a fresh local stack and
 * Farrier worker on the simulated cloud get that many pending pods at once; the table gives, per pod, the time from
 * its creation to the launch call of the NodeClaim that holds it (median, p99, max), then everything is torn down.
 */
public final class LatencyBenchmark {
  private static final String CLUSTER = "bench";

  private LatencyBenchmark() {}

  public static void main(String[] args) throws Exception {
    List<Integer> sizes = List.of(1, 100, 1_000);
    Path runDir = Path.of(".run", "bench", "latency").toAbsolutePath();
    Path out = Path.of(".run", "bench", "latency.md");
    String label = "";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--pods" -> sizes = Arrays.stream(args[++i].split(",")).map(Integer::parseInt).toList();
        case "--run-dir" -> runDir = Path.of(args[++i]).toAbsolutePath();
        case "--out" -> out = Path.of(args[++i]);
        case "--label" -> label = args[++i];
        default -> {
          System.err.println("usage: latency-benchmark [--pods 1,100,1000] [--run-dir DIR] [--out FILE] [--label TEXT]");
          System.exit(2);
        }
      }
    }
    List<String> lines = new ArrayList<>(List.of(
        "Provisioning latency (sandbox, simulated cloud): pod created -> launch call of its NodeClaim. " + label, "",
        "| pending pods | pods measured | median s | p99 s | max s | claims launched | creating the pods took s |",
        "|---:|---:|---:|---:|---:|---:|---:|"));
    lines.forEach(System.out::println);
    for (int pods : sizes) {
      String row = row(run(runDir.resolve(Integer.toString(pods)), pods));
      System.out.println(row);
      lines.add(row);
    }
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.write(out, lines);
    System.out.println("written to " + out);
    System.exit(0);
  }

  private static ProvisioningLatency.Result run(Path runDir, int pods) throws IOException, InterruptedException {
    SandboxEnvironment.recreate(runDir);
    try (var env = SandboxEnvironment.start(runDir, CLUSTER, 0)) {
      env.startWorker();
      var amis = new BlueprintAmis(AmiCatalog.load(SimulatedCloudConfig.DEFAULT_KUBERNETES_VERSION));
      var latency = new ProvisioningLatency(env, Duration.ofMinutes(10));
      latency.prepare(amis.al2(Sandbox.FROM_VERSION, "amd64"), amis.al2(Sandbox.FROM_VERSION, "arm64"));
      return latency.measure(pods);
    }
  }

  private static String row(ProvisioningLatency.Result r) {
    if (r.millis().isEmpty()) {
      return String.format(Locale.ROOT, "| %d | 0 (%d on earlier claims) | - | - | - | %d | %.2f |", r.pods(), r.earlier(),
          r.claims(), r.creating().toMillis() / 1000.0);
    }
    double[] sorted = r.millis().stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = sorted.length;
    double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    double p99 = sorted[(int) Math.ceil(0.99 * n) - 1]; // nearest rank
    String measured = r.earlier() == 0 ? Integer.toString(n) : n + " (" + r.earlier() + " on earlier claims)";
    return String.format(Locale.ROOT, "| %d | %s | %.2f | %.2f | %.2f | %d | %.2f |", r.pods(), measured, median / 1000,
        p99 / 1000, sorted[n - 1] / 1000, r.claims(), r.creating().toMillis() / 1000.0);
  }
}

package dev.farrier.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one run of Karpenter's scheduling benchmark printed ({@code go test -bench BenchmarkScheduling<n> -benchtime
 * 1x}): Go's result line {@code BenchmarkScheduling1000-2  1  1234567 ns/op  385.0 nodes  1000 pods  810.0 pods/sec},
 * its iteration count and its metrics by unit. Karpenter's benchmark reports {@code pods/sec} (its pods over the
 * time of its {@code Solve} loop), {@code nodes} and {@code pods} (new NodeClaims and the pods on them, from the
 * first {@code Solve}); Go adds {@code ns/op}.
 *
 * @param benchmark the benchmark's name without Go's {@code -GOMAXPROCS} suffix, e.g. {@code BenchmarkScheduling1000}
 * @param cpu       the {@code cpu:} line Go prints, or empty
 */
record KarpenterBenchOutput(String benchmark, int iterations, Map<String, Double> metrics, String cpu) {
  private static final Pattern RESULT = Pattern.compile("^(Benchmark\\S+?)(?:-\\d+)?\\s+(\\d+)\\s+(.+)$");
  private static final Pattern METRIC = Pattern.compile("(\\S+)\\s+(\\S+)");

  KarpenterBenchOutput {
    metrics = Map.copyOf(metrics);
  }

  /** Reads the output of one benchmark; fails on a failed run, no result line or more than one. */
  static KarpenterBenchOutput parse(String output) {
    List<String> lines = output.lines().toList();
    if (lines.stream().anyMatch(l -> l.startsWith("FAIL") || l.startsWith("--- FAIL"))) {
      throw new IllegalArgumentException("Karpenter's benchmark failed:\n" + output);
    }
    String cpu = lines.stream().filter(l -> l.startsWith("cpu: ")).map(l -> l.substring(5).trim()).findFirst().orElse("");
    List<Matcher> results = lines.stream().map(RESULT::matcher).filter(Matcher::matches).toList();
    if (results.size() != 1) {
      throw new IllegalArgumentException("expected one benchmark result line, found " + results.size() + " in:\n" + output);
    }
    Matcher result = results.getFirst();
    Map<String, Double> metrics = new LinkedHashMap<>();
    Matcher metric = METRIC.matcher(result.group(3));
    while (metric.find()) {
      metrics.put(metric.group(2), Double.parseDouble(metric.group(1)));
    }
    return new KarpenterBenchOutput(result.group(1), Integer.parseInt(result.group(2)), metrics, cpu);
  }

  double podsPerSecond() {
    return metric("pods/sec");
  }

  int nodes() {
    return (int) metric("nodes");
  }

  int pods() {
    return (int) metric("pods");
  }

  double millisPerSolve() {
    return metric("ns/op") / 1e6;
  }

  private double metric(String unit) {
    Double value = metrics.get(unit);
    if (value == null) {
      throw new IllegalArgumentException(benchmark + " reported no " + unit + " (it reported " + metrics.keySet() + ")");
    }
    return value;
  }
}

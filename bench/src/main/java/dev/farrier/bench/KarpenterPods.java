package dev.farrier.bench;

import dev.farrier.bench.BenchPod.Constraint;
import dev.farrier.bench.BenchPod.Kind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pods Karpenter's benchmark drew, as its priced run wrote them (tools/karpenter-peer, one pod a line: name,
 * millicores, memory bytes, labels, then its one constraint: kind, topology key, selector), so Farrier plans the very
 * same pods. Java cannot draw Go's random numbers, so {@link Workloads} only matches their distribution.
 */
final class KarpenterPods {
  private KarpenterPods() {}

  static List<BenchPod> read(Path file) throws IOException {
    return parse(Files.readAllLines(file));
  }

  static List<BenchPod> parse(List<String> lines) {
    return lines.stream().filter(l -> !l.isBlank() && !l.startsWith("#")).map(KarpenterPods::pod).toList();
  }

  private static BenchPod pod(String line) {
    String[] f = line.split("\t");
    if (f.length != 7) {
      throw new IllegalArgumentException("not a pod line (name, cpu, memory, labels, constraint, key, selector): " + line);
    }
    Kind kind = switch (f[4]) {
      case "none" -> Kind.NONE;
      case "spread" -> Kind.SPREAD;
      case "affinity" -> Kind.AFFINITY;
      case "anti-affinity" -> Kind.ANTI_AFFINITY;
      default -> throw new IllegalArgumentException("unknown constraint '" + f[4] + "' in: " + line);
    };
    Constraint constraint = kind == Kind.NONE ? Constraint.NONE : new Constraint(kind, f[5], labels(f[6]));
    return new BenchPod(f[0], Long.parseLong(f[1]), Long.parseLong(f[2]), labels(f[3]), constraint);
  }

  private static Map<String, String> labels(String pairs) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (!pairs.equals("-")) {
      for (String pair : pairs.split(",")) {
        int eq = pair.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException("not a label: " + pair);
        }
        labels.put(pair.substring(0, eq), pair.substring(eq + 1));
      }
    }
    return labels;
  }
}

package dev.farrier.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Farrier's measurement of one size of the side-by-side run ({@code PeerBenchmark --measure}), kept in a file between
 * processes as one line of tab-separated {@code key=value} fields: the one cold plan (the first plan in a fresh JVM,
 * as Karpenter's benchmark measures itself), the scheduling benchmark's warm runs in the same JVM
 * ({@link SchedulingCase}), and the load average around them. Numbers are written so they read back exactly.
 */
record FarrierRun(double coldMillis, CaseResult warm, LoadAverage.Span load) {
  private static final String TAG = "farrier-run";

  String format() {
    Stats s = warm.millis();
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("pods", warm.pods());
    fields.put("cold-ms", coldMillis);
    fields.put("warmups", warm.warmups());
    fields.put("runs", s.count());
    fields.put("median-ms", s.median());
    fields.put("min-ms", s.min());
    fields.put("max-ms", s.max());
    fields.put("p99-ms", s.p99());
    fields.put("nodes", warm.nodes());
    fields.put("unplaced", warm.unplaced());
    fields.put("anti-affinity-broken", warm.antiAffinityBroken());
    fields.put("price", warm.price());
    fields.put("bound", warm.bound().perHour());
    fields.put("bound-how", warm.bound().how());
    fields.put("class-bound", warm.classBound().perHour());
    fields.put("classes", warm.classBound().classes());
    fields.put("load-start", load.start());
    fields.put("load-end", load.end());
    StringBuilder line = new StringBuilder(TAG);
    fields.forEach((k, v) -> line.append('\t').append(k).append('=').append(v));
    return line.toString();
  }

  static FarrierRun parse(String text) {
    List<String> parts = List.of(text.strip().split("\t"));
    if (parts.isEmpty() || !parts.getFirst().equals(TAG)) {
      throw new IllegalArgumentException("not a " + TAG + " line: " + text);
    }
    Map<String, String> f = new LinkedHashMap<>();
    for (String part : parts.subList(1, parts.size())) {
      int eq = part.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("not a key=value field: " + part);
      }
      f.put(part.substring(0, eq), part.substring(eq + 1));
    }
    try {
      Stats stats = new Stats(integer(f, "runs"), number(f, "median-ms"), number(f, "min-ms"), number(f, "max-ms"),
          number(f, "p99-ms"));
      CaseResult warm = new CaseResult(Workloads.Mix.DIVERSE, integer(f, "pods"), integer(f, "warmups"), stats,
          integer(f, "nodes"), integer(f, "unplaced"), integer(f, "anti-affinity-broken"), number(f, "price"),
          new PriceBound(number(f, "bound"), text(f, "bound-how")),
          new PodClassBound(number(f, "class-bound"), integer(f, "classes")));
      return new FarrierRun(number(f, "cold-ms"), warm, new LoadAverage.Span(number(f, "load-start"), number(f, "load-end")));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("a field of " + TAG + " is not a number: " + text, e);
    }
  }

  double coldPodsPerSecond() {
    return warm.pods() / (coldMillis / 1000);
  }

  private static String text(Map<String, String> fields, String key) {
    String value = fields.get(key);
    if (value == null) {
      throw new IllegalArgumentException(String.format(Locale.ROOT, "%s line without %s: %s", TAG, key, fields));
    }
    return value;
  }

  private static double number(Map<String, String> fields, String key) {
    return Double.parseDouble(text(fields, key));
  }

  private static int integer(Map<String, String> fields, String key) {
    return Integer.parseInt(text(fields, key));
  }
}

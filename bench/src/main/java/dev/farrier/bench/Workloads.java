package dev.farrier.bench;

import dev.farrier.bench.BenchPod.Constraint;
import dev.farrier.bench.BenchPod.Kind;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;

/**
 * The pods of Karpenter's scheduling benchmark, in the five-part "diverse" mix or generic only, laid out in
 * Farrier's first shape or Karpenter's ({@link Shape}). Requests are drawn from the same small sets Karpenter's
 * benchmark uses (CPU 100m..1500m, memory 100Mi..4Gi), labels and selectors from seven values, so selectors match
 * some pods and not others; the seed makes every run the same (Java's generator: the same sets as Karpenter's, not
 * its draws).
 */
final class Workloads {
  static final String HOSTNAME = "kubernetes.io/hostname";
  private static final long[] MILLI_CPU = {100, 250, 500, 1000, 1500};
  private static final long[] MEMORY_MIB = {100, 256, 512, 1024, 2048, 4096};
  private static final String[] VALUES = {"a", "b", "c", "d", "e", "f", "g"};

  enum Mix {
    /** pods with requests only */
    GENERIC,
    /** one fifth each: generic, zonal spread, hostname spread, zonal pod affinity, hostname anti-affinity */
    DIVERSE
  }

  /** How the diverse mix is laid out; the generic mix is the same in both. */
  enum Shape {
    /**
     * The shape of the figures in docs/benchmarks/scheduling.md: the five kinds interleaved, and a zonal-affinity pod
     * selects the pods of one random value, which may be none yet (so it may wait for, or lead, other pods).
     */
    FARRIER,
    /**
     * Karpenter's benchmark ({@code makeDiversePods}): the kinds in blocks of a fifth each, in the order generic, zonal
     * spread, hostname spread, zonal affinity, hostname anti-affinity, then generic pods up to the count; a
     * zonal-affinity pod selects its own label (self-affinity), so every pod can schedule.
     */
    KARPENTER
  }

  private final Random random;
  private final Shape shape;

  Workloads(long seed) {
    this(seed, Shape.FARRIER);
  }

  Workloads(long seed, Shape shape) {
    random = new Random(seed);
    this.shape = shape;
  }

  List<BenchPod> pods(Mix mix, int count) {
    List<BenchPod> pods = new ArrayList<>();
    int part = count / 5;
    if (mix == Mix.DIVERSE && shape == Shape.FARRIER) {
      for (int i = 0; i < part; i++) {
        pods.add(generic(pods.size()));
        pods.add(spread(pods.size(), WellKnown.ZONE_LABEL));
        pods.add(spread(pods.size(), HOSTNAME));
        pods.add(zonalAffinity(pods.size()));
        pods.add(hostnameAntiAffinity(pods.size()));
      }
    } else if (mix == Mix.DIVERSE) {
      List<IntFunction<BenchPod>> kinds = List.of(this::generic, i -> spread(i, WellKnown.ZONE_LABEL),
          i -> spread(i, HOSTNAME), this::zonalSelfAffinity, this::hostnameAntiAffinity);
      for (IntFunction<BenchPod> kind : kinds) {
        for (int i = 0; i < part; i++) {
          pods.add(kind.apply(pods.size()));
        }
      }
    }
    while (pods.size() < count) {
      pods.add(generic(pods.size()));
    }
    return pods;
  }

  private BenchPod generic(int index) {
    return pod(index, Map.of("my-label", value()), Constraint.NONE);
  }

  /** Spread over the pods with one random label value: seven independent spread groups. */
  private BenchPod spread(int index, String topologyKey) {
    return pod(index, Map.of("my-label", value()), new Constraint(Kind.SPREAD, topologyKey, Map.of("my-label", value())));
  }

  /** Affinity to the pods with one random affinity value, which may be this pod itself or none yet. */
  private BenchPod zonalAffinity(int index) {
    return pod(index, Map.of("my-affinity", value()),
        new Constraint(Kind.AFFINITY, WellKnown.ZONE_LABEL, Map.of("my-affinity", value())));
  }

  /** Affinity to the pods with this pod's own affinity value, so the first of them leads and the rest follow it. */
  private BenchPod zonalSelfAffinity(int index) {
    Map<String, String> labels = Map.of("my-affinity", value());
    return pod(index, labels, new Constraint(Kind.AFFINITY, WellKnown.ZONE_LABEL, labels));
  }

  /** Every anti-affinity pod repels every other: one node each. */
  private BenchPod hostnameAntiAffinity(int index) {
    Map<String, String> labels = Map.of("app", "nginx");
    return pod(index, labels, new Constraint(Kind.ANTI_AFFINITY, HOSTNAME, labels));
  }

  private BenchPod pod(int index, Map<String, String> labels, Constraint constraint) {
    long cpu = MILLI_CPU[random.nextInt(MILLI_CPU.length)];
    long memory = MEMORY_MIB[random.nextInt(MEMORY_MIB.length)] << 20;
    return new BenchPod("pod-" + index, cpu, memory, labels, constraint);
  }

  private String value() {
    return VALUES[random.nextInt(VALUES.length)];
  }
}

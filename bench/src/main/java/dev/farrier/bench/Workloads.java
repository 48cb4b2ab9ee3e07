package dev.farrier.bench;

import dev.farrier.bench.BenchPod.Constraint;
import dev.farrier.bench.BenchPod.Kind;
import dev.farrier.workflows.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The pods of Karpenter's scheduling benchmark, in the five-part "diverse" mix or generic only. Requests are
 * drawn from the same small sets Karpenter's benchmark uses (CPU 100m..1500m, memory 100Mi..4Gi), labels and
 * selectors from seven values, so selectors match some pods and not others; the seed makes every run the same.
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

  private final Random random;

  Workloads(long seed) {
    random = new Random(seed);
  }

  List<BenchPod> pods(Mix mix, int count) {
    List<BenchPod> pods = new ArrayList<>();
    if (mix == Mix.DIVERSE) {
      int part = count / 5;
      for (int i = 0; i < part; i++) {
        pods.add(generic(pods.size()));
        pods.add(spread(pods.size(), WellKnown.ZONE_LABEL));
        pods.add(spread(pods.size(), HOSTNAME));
        pods.add(zonalAffinity(pods.size()));
        pods.add(hostnameAntiAffinity(pods.size()));
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

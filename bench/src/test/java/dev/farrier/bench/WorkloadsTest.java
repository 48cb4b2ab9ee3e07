package dev.farrier.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.bench.BenchPod.Kind;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class WorkloadsTest {
  @Test
  void diverseMixHasOneFifthOfEachKindAndTheRestGeneric() {
    var pods = new Workloads(42).pods(Workloads.Mix.DIVERSE, 1_003);
    Map<String, Long> byShape = pods.stream().collect(Collectors.groupingBy(
        p -> p.constraint().kind() + " " + p.constraint().topologyKey(), Collectors.counting()));
    assertEquals(Map.of("NONE null", 203L, "SPREAD topology.kubernetes.io/zone", 200L,
        "SPREAD kubernetes.io/hostname", 200L, "AFFINITY topology.kubernetes.io/zone", 200L,
        "ANTI_AFFINITY kubernetes.io/hostname", 200L), byShape);
    assertEquals(1_003, pods.stream().map(BenchPod::name).distinct().count());
  }

  /** Karpenter's makeDiversePods: a fifth of each kind in blocks, generic pods to the count, zonal self-affinity. */
  @Test
  void karpenterShapeLaysTheKindsOutInBlocksWithZonalSelfAffinity() {
    var pods = new Workloads(42, Workloads.Shape.KARPENTER).pods(Workloads.Mix.DIVERSE, 1_003);
    List<String> blocks = List.of("NONE null", "SPREAD topology.kubernetes.io/zone", "SPREAD kubernetes.io/hostname",
        "AFFINITY topology.kubernetes.io/zone", "ANTI_AFFINITY kubernetes.io/hostname");
    for (int i = 0; i < 1_003; i++) {
      var c = pods.get(i).constraint();
      assertEquals(i < 1_000 ? blocks.get(i / 200) : "NONE null", c.kind() + " " + c.topologyKey(), "pod " + i);
    }
    pods.stream().filter(p -> p.constraint().kind() == Kind.AFFINITY)
        .forEach(p -> assertEquals(p.labels(), p.constraint().selector(), p.name()));
  }

  /** Farrier's shape: a zonal-affinity pod selects one random value, often not its own (the existing figures' shape). */
  @Test
  void farrierShapeKeepsAffinityToOtherPods() {
    long others = new Workloads(42).pods(Workloads.Mix.DIVERSE, 1_000).stream()
        .filter(p -> p.constraint().kind() == Kind.AFFINITY)
        .filter(p -> !p.labels().equals(p.constraint().selector())).count();
    assertTrue(others > 100, others + " of 200 select other pods");
  }

  @Test
  void sameSeedSameWorkload() {
    assertEquals(new Workloads(42).pods(Workloads.Mix.DIVERSE, 500), new Workloads(42).pods(Workloads.Mix.DIVERSE, 500));
  }

  @Test
  void genericMixHasNoConstraints() {
    var kinds = new Workloads(1).pods(Workloads.Mix.GENERIC, 300).stream()
        .collect(Collectors.groupingBy(p -> p.constraint().kind(), Collectors.counting()));
    assertEquals(Map.of(Kind.NONE, 300L), kinds);
  }

  @Test
  void antiAffinityPodsSelectEachOther() {
    var anti = new Workloads(3).pods(Workloads.Mix.DIVERSE, 50).stream()
        .filter(p -> p.constraint().kind() == Kind.ANTI_AFFINITY).collect(Collectors.toMap(BenchPod::name, Function.identity()));
    anti.values().forEach(p -> assertEquals(p.labels(), p.constraint().selector()));
    assertEquals(10, anti.size());
  }
}

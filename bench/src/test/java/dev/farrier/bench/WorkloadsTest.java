package dev.farrier.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.bench.BenchPod.Kind;
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

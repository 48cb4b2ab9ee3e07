package dev.farrier.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.farrier.bench.BenchPod.Kind;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KarpenterPodsTest {
  /** Two pods of each kind from Karpenter v1.14.1's makeDiversePods(1000), as tools/karpenter-peer wrote them. */
  private static List<BenchPod> sample() throws Exception {
    return KarpenterPods.read(Path.of(KarpenterPodsTest.class.getResource("/karpenter/pods-sample.tsv").toURI()));
  }

  @Test
  void readsRequestsLabelsAndTheOneConstraint() throws Exception {
    List<BenchPod> pods = sample();
    assertEquals(10, pods.size());
    BenchPod generic = pods.getFirst();
    assertEquals(new BenchPod("questersilk-1-9skkzeedpd", 500, 512L << 20,
        Map.of("my-label", "f", "testing/cluster", "unspecified"), BenchPod.Constraint.NONE), generic);
    assertEquals(new BenchPod.Constraint(Kind.SPREAD, "topology.kubernetes.io/zone", Map.of("my-label", "e")),
        pods.get(2).constraint());
    assertEquals(new BenchPod.Constraint(Kind.SPREAD, "kubernetes.io/hostname", Map.of("my-label", "f")),
        pods.get(4).constraint());
    assertEquals(new BenchPod.Constraint(Kind.ANTI_AFFINITY, "kubernetes.io/hostname", Map.of("app", "nginx")),
        pods.get(9).constraint());
  }

  /** Karpenter's zonal affinity is self-affinity: the selector is the pod's own affinity label. */
  @Test
  void zonalAffinityPodsSelectThemselves() throws Exception {
    List<BenchPod> affinity = sample().stream().filter(p -> p.constraint().kind() == Kind.AFFINITY).toList();
    assertEquals(2, affinity.size());
    for (BenchPod p : affinity) {
      assertEquals("topology.kubernetes.io/zone", p.constraint().topologyKey());
      assertEquals(p.constraint().selector().get("my-affininity"), p.labels().get("my-affininity"));
    }
  }

  @Test
  void anUnknownConstraintOrShapeIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> KarpenterPods.parse(List.of("p\t100\t1\t-\tpreferred\t-\t-")));
    assertThrows(IllegalArgumentException.class, () -> KarpenterPods.parse(List.of("p\t100\t1\t-\tnone")));
  }
}

package dev.farrier.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KubernetesCommandsTest {
  @Test
  void kwokReadsItsOptionsFromAKwokConfiguration() {
    Map<?, ?> config = Serialization.unmarshal(KubernetesCommands.kwokConfiguration(), Map.class);

    assertEquals("config.kwok.x-k8s.io/v1alpha1", config.get("apiVersion"));
    assertEquals("KwokConfiguration", config.get("kind"));
    Map<?, ?> options = (Map<?, ?>) config.get("options");
    assertEquals(false, options.get("manageAllNodes"));
    assertEquals(KubernetesCommands.KWOK_NODE_SELECTOR, options.get("manageNodesWithAnnotationSelector"));
    assertEquals(KubernetesCommands.POD_CIDR, options.get("cidr"));
    assertEquals(40, options.get("nodeLeaseDurationSeconds"));
    assertEquals(KubernetesCommands.KWOK_LEASE_PARALLELISM, options.get("nodeLeaseParallelism"));
    assertEquals(KubernetesCommands.KWOK_STAGE_PARALLELISM, options.get("nodePlayStageParallelism"));
    assertEquals(KubernetesCommands.KWOK_STAGE_PARALLELISM, options.get("podPlayStageParallelism"));
  }
}

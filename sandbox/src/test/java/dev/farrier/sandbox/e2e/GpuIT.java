package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.simulated.AmiCatalog;
import dev.farrier.sandbox.GpuScenario;
import dev.farrier.sandbox.SandboxEnvironment;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's {@code gpu} scenario end to end: a pod asking for an NVIDIA GPU gets a GPU type launched from the
 * alias's NVIDIA image; the node registers without the GPU, the claim is Initialized and the pod bound only once the
 * simulated device plugin reports it.
 */
class GpuIT {
  @Test
  void aGpuPodRunsOnAnNvidiaImageOnlyOnceItsDeviceIsReported() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("gpu"), "e2e-gpu", 0)) {
      env.startWorker(Map.of("FARRIER_SIMULATED_DEVICE_PLUGIN_DELAY", GpuScenario.DEVICE_PLUGIN_DELAY));

      var played = new GpuScenario(env.kube(), env.cluster(), AmiCatalog.load("1.34"), E2e.TIMEOUT).play();

      assertTrue(played.instanceType().startsWith("g"), "an NVIDIA GPU type: " + played);
      assertTrue(played.imageName().startsWith("amazon-eks-node-al2023-x86_64-nvidia-")
          || played.imageName().startsWith("amazon-eks-node-al2023-arm64-nvidia-"), "the alias's NVIDIA image: " + played);
      assertTrue(Duration.between(played.registeredAt(), played.gpuReportedAt()).toSeconds() >= 8,
          "the GPU came with the device plugin, about " + GpuScenario.DEVICE_PLUGIN_DELAY + " after registration: " + played);
      assertFalse(played.boundBeforeGpu(), "never bound to the node before it reported the GPU");
      assertFalse(played.podBoundAt().isBefore(played.registeredAt().plusSeconds(8)), "bound only once the GPU was there: " + played);
      assertFalse(played.initializedAt().isBefore(played.registeredAt().plusSeconds(8)),
          "Initialized only once the GPU was there: " + played);
      assertEquals(played.node(), env.kube().pods().inNamespace("default").withName(GpuScenario.POD).get().getSpec().getNodeName());
    }
  }
}

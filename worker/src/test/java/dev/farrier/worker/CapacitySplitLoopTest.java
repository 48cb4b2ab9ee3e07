package dev.farrier.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.split.CapacitySplitter;
import dev.farrier.activities.split.SplitWorkload;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CapacitySplitLoopTest {
  @Test
  void aWorkloadThatDoesNotReadFailsOnePassNotTheLoop() throws Exception {
    // Nothing of the splitter is reached: reading the workloads throws first.
    var splitter = new CapacitySplitter(null, null, null, null, null, Clock.systemUTC());
    var passes = new AtomicInteger();
    var executor = Executors.newSingleThreadScheduledExecutor();
    try {
      executor.scheduleWithFixedDelay(() -> {
        passes.incrementAndGet();
        CapacitySplitLoop.passSafely(() -> {
          throw new IllegalStateException("a Deployment that does not read");
        }, splitter, () -> false);
      }, 0, 1, TimeUnit.MILLISECONDS);
      // A task that throws is never run again: a second pass shows the loop survived the first.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (passes.get() < 3 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertTrue(passes.get() >= 3, "passes: " + passes.get());
    } finally {
      executor.shutdownNow();
    }
  }

  @Test
  void aDeploymentWithoutASpecReadsAsAWorkloadRatherThanThrowing() {
    var bare = new DeploymentBuilder().withNewMetadata().withName("web").withNamespace("default").withUid("u")
        .addToAnnotations("farrier.dev/on-demand-min", "1").endMetadata().build();
    bare.setSpec(null);
    var w = SplitWorkload.of(bare);
    assertEquals(1, w.replicas());
    assertEquals(List.of(), w.tolerations());
  }
}

package dev.farrier.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.farrier.activities.kube.Cluster;
import jakarta.inject.Named;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Garbage collection is handed the cluster whose lists are never cached: with the informer cache, a claim created a
 * moment ago (or while a watch reconnects) could be missing and its instance taken for an orphan.
 */
class GarbageCollectionWiringTest {
  @Test
  void theGarbageCollectorReadsTheLiveCluster() {
    var constructor = GarbageCollectionLoop.class.getConstructors()[0];
    var parameter = Arrays.stream(constructor.getParameters()).filter(p -> p.getType() == Cluster.class).findFirst().orElseThrow();
    Named named = parameter.getAnnotation(Named.class);
    assertNotNull(named, "the cluster of garbage collection must be the named live one");
    assertEquals(TemporalWorkerFactory.LIVE, named.value());
  }
}

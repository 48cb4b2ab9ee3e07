package dev.farrier.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.farrier.activities.gc.GarbageCollector;
import dev.farrier.activities.kube.Fabric8Cluster;
import io.micronaut.context.annotation.Prototype;
import jakarta.inject.Named;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Garbage collection is handed the cluster whose lists are never cached: with the informer cache, a claim created a
 * moment ago (or while a watch reconnects) could be missing and its instance taken for an orphan. And each term the
 * worker leads gets a new collector (a prototype), so sightings never carry over from an earlier term.
 */
class GarbageCollectionWiringTest {
  @Test
  void theGarbageCollectorReadsTheLiveCluster() {
    var factory = Arrays.stream(TemporalWorkerFactory.class.getDeclaredMethods())
        .filter(m -> m.getReturnType() == GarbageCollector.class).findFirst().orElseThrow();
    var parameter = Arrays.stream(factory.getParameters()).filter(p -> p.getType() == Fabric8Cluster.class).findFirst().orElseThrow();
    Named named = parameter.getAnnotation(Named.class);
    assertNotNull(named, "the cluster of garbage collection must be the named live one");
    assertEquals(TemporalWorkerFactory.LIVE, named.value());
    assertNotNull(factory.getAnnotation(Prototype.class), "a new collector for each term: " + factory);
  }
}

package dev.farrier.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The integration tests' worker AOT cache: who records it, when it is used, and when it is not kept. */
class WorkerAotCacheTest {
  @TempDir
  Path dir;

  private String classPath() throws Exception {
    Path jar = Files.write(dir.resolve("worker.jar"), new byte[] {1, 2, 3});
    Path classes = Files.createDirectories(dir.resolve("classes"));
    return jar + File.pathSeparator + classes;
  }

  @Test
  void theWorkersClassPathLeavesTheDirectoriesOut() throws Exception {
    var cache = WorkerAotCache.of(dir.resolve("aot"), classPath());
    assertEquals(dir.resolve("worker.jar").toString(), cache.classPath());
  }

  @Test
  void oneWorkerRecordsAtATimeAndTheOthersUseTheCacheOnceItIsWrittenWhole() throws Exception {
    var cache = WorkerAotCache.of(dir.resolve("aot"), classPath());
    var first = cache.next(true);
    assertEquals(1, first.options().size(), first.toString());
    assertTrue(first.options().getFirst().startsWith("-XX:AOTCacheOutput=") && first.options().getFirst().endsWith(".aot.part"));
    assertEquals(WorkerAotCache.Start.NONE, cache.next(true), "another worker while the first records: nothing");
    assertEquals(WorkerAotCache.Start.NONE, cache.next(false), "a measured worker never records");

    Files.write(first.recording(), new byte[] {42});
    cache.trained(first, true);
    assertFalse(Files.exists(first.recording()));
    var later = cache.next(true);
    assertEquals(List.of("-XX:AOTCache=" + first.recording().resolveSibling(first.recording().getFileName().toString().replace(".part", ""))),
        later.options());
    assertNull(later.recording());
    assertEquals(later.options(), cache.next(false).options(), "a measured worker uses it too");
  }

  @Test
  void aCacheNotWrittenWholeIsDroppedAndTheNextWorkerRecordsAgain() throws Exception {
    var cache = WorkerAotCache.of(dir.resolve("aot"), classPath());
    var first = cache.next(true);
    Files.write(first.recording(), new byte[] {42});
    cache.trained(first, false);
    assertFalse(Files.exists(first.recording()), "a worker killed while writing it leaves nothing to be used");
    var again = cache.next(true);
    assertTrue(again.options().getFirst().startsWith("-XX:AOTCacheOutput="), again.toString());
    cache.trained(again, false);
  }

  @Test
  void aRebuiltJarMakesANewCache() throws Exception {
    String cp = classPath();
    var before = WorkerAotCache.of(dir.resolve("aot"), cp).next(true);
    WorkerAotCache.of(dir.resolve("aot"), cp).trained(before, false);
    Files.setLastModifiedTime(dir.resolve("worker.jar"), FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
    var after = WorkerAotCache.of(dir.resolve("aot"), cp).next(true);
    assertNotEquals(before.recording(), after.recording());
    WorkerAotCache.of(dir.resolve("aot"), cp).trained(after, false);
  }
}

package dev.farrier.sandbox;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * An ahead-of-time cache (JDK 25's {@code -XX:AOTCache}, JEP 483 and 514) for the worker JVMs the integration tests
 * start: the classes a worker loads and links on its way up, kept from the first worker of the module's run, so the
 * later ones start in about a third of the CPU (measured: 12 CPU-s and 9 s to "farrier worker started" without it,
 * 5 CPU-s and 3 s with it). On by the system property {@code farrier.worker.aotDir} the build sets for the integration
 * tests only; the sandbox and users start workers as the chart does.
 *
 * <p>The first worker started while no cache exists records it ({@code -XX:AOTCacheOutput}); the JVM writes it when it
 * exits, and {@link #trained} moves it into place then, so a half-written cache is never used. Only one worker at a
 * time records (a lock file), the others start as usual meanwhile. The cache is named after the class path's jars
 * (paths, sizes and modification times), so a rebuilt jar makes a new one; the JVM itself refuses a cache that does
 * not match and starts without it. Directories are left off the worker's class path: the JVM caches classes from jars
 * only, and the worker's classes are all in jars (the test classes and the sandbox's own are not the worker's).
 */
final class WorkerAotCache {
  private final Path cache;
  private final Path lock;
  private final List<String> classPath;

  private WorkerAotCache(Path dir, List<String> classPath) {
    this.classPath = classPath;
    String key = Integer.toHexString(fingerprint(classPath));
    this.cache = dir.resolve("worker-" + key + ".aot");
    this.lock = dir.resolve("worker-" + key + ".recording");
  }

  /** The cache of the directory the build names, for this class path; empty when the build names none. */
  static Optional<WorkerAotCache> configured(String classPath) {
    String dir = System.getProperty("farrier.worker.aotDir", "").trim();
    if (dir.isEmpty()) {
      return Optional.empty();
    }
    List<String> jars = Stream.of(classPath.split(File.pathSeparator)).filter(e -> !Files.isDirectory(Path.of(e))).toList();
    return Optional.of(new WorkerAotCache(Path.of(dir), jars));
  }

  String classPath() {
    return String.join(File.pathSeparator, classPath);
  }

  /**
   * The JVM options for the next worker: use the cache when it is there, else record it when it {@code mayRecord} and
   * no other worker is recording; with {@code recording} set to the file being recorded.
   */
  Start next(boolean mayRecord) {
    if (Files.isRegularFile(cache)) {
      return new Start(List.of("-XX:AOTCache=" + cache), null);
    }
    if (!mayRecord) {
      return new Start(List.of(), null);
    }
    try {
      Files.createDirectories(cache.getParent());
      Files.createFile(lock);
    } catch (FileAlreadyExistsException e) {
      return new Start(List.of(), null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Path recording = cache.resolveSibling(cache.getFileName() + ".part");
    return new Start(List.of("-XX:AOTCacheOutput=" + recording), recording);
  }

  /** A worker's AOT options, and the file it records into, null when it records nothing. */
  record Start(List<String> options, Path recording) {}

  /** After the recording worker exited: the cache into place if it was written whole, and the lock released. */
  void trained(Path recording, boolean exitedCleanly) {
    try {
      if (exitedCleanly && Files.isRegularFile(recording)) {
        Files.move(recording, cache, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } else {
        Files.deleteIfExists(recording);
      }
      Files.deleteIfExists(lock);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int fingerprint(List<String> jars) {
    int h = 17;
    for (String jar : jars) {
      h = 31 * h + jar.hashCode();
      try {
        var attributes = Files.readAttributes(Path.of(jar), BasicFileAttributes.class);
        h = 31 * h + Long.hashCode(attributes.size());
        h = 31 * h + attributes.lastModifiedTime().hashCode();
      } catch (IOException e) {
        h = 31 * h; // a missing entry: the JVM skips it, and so does the key
      }
    }
    return h;
  }
}

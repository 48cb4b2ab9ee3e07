package dev.farrier.sandbox;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An ahead-of-time cache (JDK 25's {@code -XX:AOTCache}, JEP 483 and 514) for the worker JVMs the integration tests
 * start: the classes a worker loads and links on its way up, kept from the first worker of the build (one directory
 * and one class path, the sandbox's runtime one, for the sandbox's and the CLI's tests), so the later ones start in
 * about 40% of the CPU (measured: 12 CPU-s and 9 s to "farrier worker started" without it,
 * 5 CPU-s and 3 s with it). On by the system property {@code farrier.worker.aotDir} the build sets for the integration
 * tests only; the sandbox and users start workers as the chart does.
 *
 * <p>The first worker started while no cache exists records it ({@code -XX:AOTCacheOutput}); the JVM writes it when it
 * exits, and {@link #trained} moves it into place once the worker said it wrote it whole, so a half-written cache is
 * never used. Only one worker at a time records: the test JVM that starts it holds a lock on a file beside the cache
 * until then, which the operating system drops if that JVM dies; the others start as usual meanwhile. Nothing about the
 * cache fails a test: at worst a worker starts without it. The cache is named after the class path's jars
 * (paths, sizes and modification times), so a rebuilt jar makes a new one; the JVM itself refuses a cache that does
 * not match and starts without it. Directories are left off the worker's class path: the JVM caches classes from jars
 * only, and the worker's classes are all in jars (the test classes and the sandbox's own are not the worker's).
 */
final class WorkerAotCache {
  private static final Logger LOG = LoggerFactory.getLogger(WorkerAotCache.class);

  private final Path cache;
  private final Path lock;
  private final List<String> classPath;

  private WorkerAotCache(Path dir, List<String> classPath) {
    this.classPath = classPath;
    String key = Integer.toHexString(fingerprint(classPath));
    this.cache = dir.resolve("worker-" + key + ".aot");
    this.lock = dir.resolve("worker-" + key + ".lock");
  }

  /** The cache of the directory the build names, for this class path; empty when the build names none. */
  static Optional<WorkerAotCache> configured(String classPath) {
    String dir = System.getProperty("farrier.worker.aotDir", "").trim();
    if (dir.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(of(Path.of(dir), classPath));
  }

  /** The cache in {@code dir} for this class path (its directories left out). */
  static WorkerAotCache of(Path dir, String classPath) {
    return new WorkerAotCache(dir, Stream.of(classPath.split(File.pathSeparator)).filter(e -> !Files.isDirectory(Path.of(e))).toList());
  }

  String classPath() {
    return String.join(File.pathSeparator, classPath);
  }

  /**
   * The JVM options for the next worker: use the cache when it is there, else record it when it {@code mayRecord} and
   * no other worker is recording (then the returned {@link Start} holds the lock until {@link #trained}).
   */
  Start next(boolean mayRecord) {
    if (Files.isRegularFile(cache)) {
      return new Start(List.of("-XX:AOTCache=" + cache), null, null);
    }
    if (!mayRecord) {
      return Start.NONE;
    }
    FileChannel channel = null;
    try {
      Files.createDirectories(cache.getParent());
      channel = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock held = channel.tryLock();
      if (held == null) {
        channel.close();
        return Start.NONE;
      }
    } catch (OverlappingFileLockException recordingInThisJvm) {
      closeQuietly(channel);
      return Start.NONE;
    } catch (IOException e) {
      closeQuietly(channel);
      LOG.warn("worker AOT cache: cannot take {}, the worker starts without recording: {}", lock, e.toString());
      return Start.NONE;
    }
    Path recording = cache.resolveSibling(cache.getFileName() + ".part");
    return new Start(List.of("-XX:AOTCacheOutput=" + recording), recording, channel);
  }

  /**
   * A worker's AOT options; when it records, the file it records into and the channel whose lock says so.
   */
  record Start(List<String> options, Path recording, FileChannel lock) {
    static final Start NONE = new Start(List.of(), null, null);
  }

  /**
   * After the recording worker exited: the cache into place if the worker wrote it whole ({@code written}: it said so
   * in its log), else dropped; the lock released either way.
   */
  void trained(Start start, boolean written) {
    try {
      if (written && Files.isRegularFile(start.recording())) {
        Files.move(start.recording(), cache, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } else {
        Files.deleteIfExists(start.recording());
      }
    } catch (IOException e) {
      LOG.warn("worker AOT cache: {} not kept: {}", start.recording(), e.toString());
    } finally {
      closeQuietly(start.lock());
    }
  }

  /** What the JVM prints once it wrote the cache {@code recording} whole. */
  static String writtenMessage(Path recording) {
    return "AOTCache creation is complete: " + recording;
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // the lock goes with the channel, or with the JVM
      }
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

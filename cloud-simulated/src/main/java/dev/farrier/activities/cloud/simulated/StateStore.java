package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.CloudProviderException;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The simulated cloud's state file with read-modify-write under a lock, so several processes (the worker, the test
 * that kills it, the sandbox) can share one cloud, and a process killed with -9 leaves a whole file behind.
 *
 * <p>Writers hold an OS file lock on {@code state.lock} (released by the OS if the process dies) and, because one
 * JVM may not hold two locks on one file, a per-directory lock inside the JVM. The state is written to a temporary
 * file and renamed over {@code state.json} atomically, so readers never need the lock and never see half a file.
 */
final class StateStore {
  private static final ConcurrentHashMap<Path, ReentrantLock> JVM_LOCKS = new ConcurrentHashMap<>();
  /**
   * The network (second octet of the private IPs, {@link PrivateAddresses}) of each cloud this process created.
   * Clouds made in one process usually share one cluster (the tests' shared local stack, the sandbox), and two of them
   * on one network hand out the same Node names: the simulated kubelet then finds each name taken and never registers
   * the second instance, and a test waiting for its Node waits forever.
   */
  private static final Map<Path, Integer> NETWORKS = new HashMap<>();

  /**
   * What a mutation decided: the new state (null: unchanged), its result, the calls to log, or a failure to throw
   * (after writing the state, when a failed call still changed something, as a launch that found no capacity marks
   * the offerings it tried).
   */
  record Change<T>(CloudState state, T result, List<CloudCall> calls, CloudProviderException failure) {
    Change {
      calls = calls.stream().filter(Objects::nonNull).toList();
    }

    static <T> Change<T> of(CloudState state, T result, CloudCall call) {
      return new Change<>(state, result, Collections.singletonList(call), null);
    }

    static <T> Change<T> of(CloudState state, T result, List<CloudCall> calls) {
      return new Change<>(state, result, calls, null);
    }

    static <T> Change<T> unchanged(T result, CloudCall call) {
      return new Change<>(null, result, Collections.singletonList(call), null);
    }

    static <T> Change<T> fail(CloudCall call, CloudProviderException failure) {
      return new Change<>(null, null, Collections.singletonList(call), failure);
    }

    static <T> Change<T> failAfter(CloudState state, List<CloudCall> calls, CloudProviderException failure) {
      return new Change<>(state, null, calls, failure);
    }
  }

  private final Path dir;
  private final int initialNetwork;
  private final Path stateFile;
  private final Path lockFile;
  private final CloudCallLog calls;
  private final ReentrantLock jvmLock;
  /** The last state parsed and the bytes it was parsed from (the state is immutable, so readers may share it). */
  private volatile Parsed lastRead;

  private record Parsed(byte[] bytes, CloudState state) {}

  StateStore(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the simulated cloud's state directory " + dir, e);
    }
    this.dir = dir.toAbsolutePath().normalize();
    this.stateFile = this.dir.resolve("state.json");
    this.lockFile = this.dir.resolve("state.lock");
    this.calls = new CloudCallLog(this.dir);
    this.jvmLock = JVM_LOCKS.computeIfAbsent(this.dir, d -> new ReentrantLock());
    this.initialNetwork = networkOf(this.dir);
  }

  /**
   * A new cloud's network: derived from its directory, so processes sharing the directory pick the same one (the first
   * write persists it anyway), moved to the next one no other cloud of this process holds. Past 256 clouds in one
   * process networks repeat.
   */
  private static synchronized int networkOf(Path dir) {
    Integer known = NETWORKS.get(dir);
    if (known != null) {
      return known;
    }
    int derived = derivedNetwork(dir);
    int network = derived;
    for (int i = 0; i < 256 && NETWORKS.containsValue(network); i++) {
      network = (derived + i + 1) % 256;
    }
    NETWORKS.put(dir, network);
    return network;
  }

  /** The network a cloud's directory (absolute, normalized) derives, before another cloud of this process moves it. */
  static int derivedNetwork(Path dir) {
    return Byte.toUnsignedInt(sha256(dir.toString())[0]);
  }

  CloudCallLog calls() {
    return calls;
  }

  /**
   * The current state, without locking (the file is only ever replaced whole). Parsed again only when the file's bytes
   * differ from those of the last read: every call of the cloud reads the state, and parsing hundreds of instances
   * each time took a quarter of the worker's CPU in the fleet benchmark, while the bytes change only on a mutation.
   */
  CloudState read() {
    try {
      byte[] bytes = readAll(stateFile);
      Parsed cached = lastRead;
      if (cached != null && Arrays.equals(cached.bytes(), bytes)) {
        return cached.state();
      }
      CloudState state = SimulatedJson.MAPPER.readValue(bytes, CloudState.class);
      lastRead = new Parsed(bytes, state);
      return state;
    } catch (IOException e) {
      if (e instanceof FileNotFoundException && Files.notExists(stateFile)) {
        return CloudState.initial(initialNetwork);
      }
      throw new UncheckedIOException("cannot read the simulated cloud's state " + stateFile, e);
    }
  }

  /**
   * Runs {@code mutation} on the current state under the lock, writes the new state, then appends the calls and
   * throws the failure, if any. The state is written before the call is logged so a
   * crash in between can lose a log line but never log a launch that did not happen.
   */
  <T> T mutate(Function<CloudState, Change<T>> mutation) {
    jvmLock.lock();
    try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
         FileLock ignored = channel.lock()) {
      Change<T> change = mutation.apply(read());
      if (change.state() != null) {
        write(change.state());
      }
      change.calls().forEach(calls::append);
      if (change.failure() != null) {
        throw change.failure();
      }
      return change.result();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot lock the simulated cloud's state in " + dir, e);
    } finally {
      jvmLock.unlock();
    }
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK ships SHA-256", e);
    }
  }

  /*
   * The state file is read and written through java.io streams, not NIO channels: a channel copies a heap buffer
   * through a temporary direct buffer as large as the file and keeps it for the calling thread, so each of the worker's
   * 200 activity threads that read or wrote the state held about 1 MB outside the heap at 1,000 nodes
   * (docs/benchmarks/worker-memory.md).
   */
  private static byte[] readAll(Path file) throws IOException {
    try (var in = new FileInputStream(file.toFile())) {
      return in.readAllBytes();
    }
  }

  private void write(CloudState state) throws IOException {
    Path tmp = dir.resolve("state.json.tmp");
    try (var out = new FileOutputStream(tmp.toFile())) {
      out.write(SimulatedJson.MAPPER.writeValueAsBytes(state));
      out.getFD().sync();
    }
    Files.move(tmp, stateFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }
}

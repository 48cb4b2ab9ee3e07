package dev.farrier.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntSupplier;

/**
 * Hands out loopback ports reserved for one stack until it closes. A port is reserved by a lock on
 * {@code <tmpdir>/farrier-ports/<port>.lock}: every stack on the machine (the test JVMs running side by side, a sandbox)
 * skips a port another one holds, so none can bind a port handed to another stack's component between the hand-out
 * and the bind; the operating system drops the lock when a JVM dies, so a crash leaks nothing. Ports come from below
 * the kernel's ephemeral range ({@code net.ipv4.ip_local_port_range}), where no outgoing connection takes its source
 * port either; that race was seen.
 */
final class FreePorts implements AutoCloseable {
  private static final int LOWEST = 10_000;
  private static final int ATTEMPTS = 200;

  private final Path lockDir;
  private final IntSupplier candidates;
  private final Map<Integer, FileChannel> reserved = new LinkedHashMap<>();

  FreePorts() {
    this(Path.of(System.getProperty("java.io.tmpdir"), "farrier-ports"), FreePorts::randomBelowEphemeral);
  }

  /** Ports from {@code candidates}, reserved under {@code lockDir}; for tests. */
  FreePorts(Path lockDir, IntSupplier candidates) {
    this.lockDir = lockDir;
    this.candidates = candidates;
  }

  /** A port no other stack holds, bindable on 127.0.0.1 right now, reserved until {@link #close()}. */
  synchronized int next() {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      int port = candidates.getAsInt();
      if (reserved.containsKey(port)) {
        continue;
      }
      FileChannel lock = reserve(port);
      if (lock == null) {
        continue;
      }
      if (!isFree(port)) {
        closeQuietly(lock);
        continue;
      }
      reserved.put(port, lock);
      return port;
    }
    throw new UncheckedIOException(new IOException("no free loopback port after " + ATTEMPTS + " attempts (locks in " + lockDir + ")"));
  }

  /** Gives every port back. The lock files stay: deleting one could race with another stack opening it. */
  @Override
  public synchronized void close() {
    reserved.values().forEach(FreePorts::closeQuietly);
    reserved.clear();
  }

  /** The channel holding {@code port}'s lock, or null when another stack (in any JVM) holds it. */
  private FileChannel reserve(int port) {
    FileChannel channel = null;
    try {
      Files.createDirectories(lockDir);
      channel = FileChannel.open(lockDir.resolve(port + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      if (channel.tryLock() != null) {
        return channel;
      }
    } catch (OverlappingFileLockException heldInThisJvm) {
      // another stack of this JVM holds it
    } catch (IOException e) {
      throw new UncheckedIOException("cannot reserve loopback port " + port + " in " + lockDir, e);
    }
    closeQuietly(channel);
    return null;
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException ignored) {
      // the lock goes with the channel or with the process
    }
  }

  /** Whether a specific port can be bound on 127.0.0.1 right now. */
  static boolean isFree(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static int randomBelowEphemeral() {
    return LOWEST + ThreadLocalRandom.current().nextInt(ephemeralRangeStart() - LOWEST);
  }

  /** The first port of the kernel's ephemeral range (32768 when it cannot be read). */
  static int ephemeralRangeStart() {
    try {
      var range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+");
      return Math.max(LOWEST + 1000, Integer.parseInt(range[0]));
    } catch (IOException | RuntimeException e) {
      return 32_768;
    }
  }
}

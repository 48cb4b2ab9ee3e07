package dev.farrier.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Hands out loopback ports that were free a moment ago. Ports come from below the kernel's ephemeral range
 * ({@code net.ipv4.ip_local_port_range}), because a port inside it can be taken as the source port of any outgoing
 * connection (the API server's to etcd, say) between the probe and the component's bind; that race was seen. A
 * port is still only checked, not reserved, so another listener could take it; the component then fails with
 * "address already in use" in its log, which {@link LocalStack#start} reports. Ports already handed out by this
 * instance are never handed out twice.
 */
final class FreePorts {
  private final Set<Integer> handedOut = new HashSet<>();

  synchronized int next() {
    for (int attempt = 0; attempt < 50; attempt++) {
      int port = probe();
      if (handedOut.add(port)) {
        return port;
      }
    }
    throw new IllegalStateException("no free loopback port after 50 attempts");
  }

  /** Whether a specific port can be bound on 127.0.0.1 right now. */
  static boolean isFree(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static final int LOWEST = 10_000;

  private static int probe() {
    int below = ephemeralRangeStart();
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = LOWEST + ThreadLocalRandom.current().nextInt(below - LOWEST);
      if (isFree(port)) {
        return port;
      }
    }
    throw new UncheckedIOException(new IOException("no free loopback port between " + LOWEST + " and " + below));
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

package dev.farrier.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/**
 * Hands out loopback ports that were free a moment ago. A port is only reserved while the probe socket is open, so
 * another process can still take it before the component binds; the component then fails with "address already in
 * use" in its log, which {@link LocalStack#start} reports. Ports already handed out by this instance are never
 * handed out twice, because the kernel may offer a just-closed port again.
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

  private static int probe() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open a loopback socket", e);
    }
  }
}

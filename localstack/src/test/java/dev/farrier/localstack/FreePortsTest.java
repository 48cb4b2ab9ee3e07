package dev.farrier.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FreePortsTest {
  @TempDir Path locks;

  @Test
  void aPortHeldByOneStackIsNeverHandedToAnother() {
    int port = freeLoopbackPort();
    try (var first = new FreePorts(locks, () -> port)) {
      assertEquals(port, first.next());
      var second = new FreePorts(locks, candidates(port, port, port));
      var refused = assertThrows(UncheckedIOException.class, second::next);
      assertEquals("java.io.IOException: no free loopback port after 200 attempts (locks in " + locks + ")", refused.getMessage());
    }
  }

  @Test
  void closingAStackGivesItsPortsBack() {
    int port = freeLoopbackPort();
    var first = new FreePorts(locks, () -> port);
    assertEquals(port, first.next());
    first.close();
    try (var second = new FreePorts(locks, () -> port)) {
      assertEquals(port, second.next());
    }
  }

  @Test
  void aStackNeverHandsOutOnePortTwice() {
    int a = freeLoopbackPort();
    int b = freeLoopbackPort();
    try (var ports = new FreePorts(locks, candidates(a, a, b))) {
      assertEquals(a, ports.next());
      assertEquals(b, ports.next());
    }
  }

  @Test
  void aPortSomethingElseListensOnIsSkipped() throws IOException {
    int free = freeLoopbackPort();
    try (var listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        var ports = new FreePorts(locks, candidates(listening.getLocalPort(), free))) {
      int port = ports.next();
      assertNotEquals(listening.getLocalPort(), port);
      assertEquals(free, port);
    }
  }

  /** {@code ports} in order, then the last one for ever. */
  private static IntSupplier candidates(int... ports) {
    Iterator<Integer> it = java.util.Arrays.stream(ports).boxed().toList().iterator();
    int last = ports[ports.length - 1];
    return () -> it.hasNext() ? it.next() : last;
  }

  private static int freeLoopbackPort() {
    try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

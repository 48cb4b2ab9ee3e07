package dev.farrier.planner;

import java.util.List;

/**
 * One {@code hostPort} a container of a pod asks for, as the kube-scheduler's NodePorts filter reads it: a node holds
 * each (host IP, protocol, port) once, and a wildcard host IP ({@code 0.0.0.0} or {@code ::}) claims the port on every
 * address of its protocol.
 *
 * @param hostIp   {@code hostIP}, {@code 0.0.0.0} when unset
 * @param protocol {@code protocol}, {@code TCP} when unset
 * @param port     {@code hostPort}, above zero
 */
public record HostPort(String hostIp, String protocol, int port) {
  private static final String ANY_V4 = "0.0.0.0";
  private static final String ANY_V6 = "::";

  public HostPort {
    hostIp = hostIp == null || hostIp.isEmpty() ? ANY_V4 : hostIp;
    protocol = protocol == null || protocol.isEmpty() ? "TCP" : protocol;
    if (port <= 0) {
      throw new IllegalArgumentException("hostPort must be above 0, got " + port);
    }
  }

  /** Whether two pods asking for these cannot share a node. */
  boolean conflictsWith(HostPort other) {
    return port == other.port && protocol.equals(other.protocol)
        && (hostIp.equals(other.hostIp) || wildcard() || other.wildcard());
  }

  private boolean wildcard() {
    return hostIp.equals(ANY_V4) || hostIp.equals(ANY_V6);
  }

  /** The first of {@code wanted} that one of {@code used} already holds, or null. */
  static HostPort firstConflict(List<HostPort> used, List<HostPort> wanted) {
    for (HostPort w : wanted) {
      for (HostPort u : used) {
        if (w.conflictsWith(u)) {
          return w;
        }
      }
    }
    return null;
  }

  String describe() {
    return hostIp + ":" + port + "/" + protocol;
  }
}

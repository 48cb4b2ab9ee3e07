package dev.farrier.sandbox.bench.peer;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One controller under comparison on a fresh local stack of its own (both use the {@code karpenter.sh} group, so they
 * never share one): the API server the workload goes to, the NodePool's {@code nodeClassRef}, and the processes whose
 * memory and CPU count.
 */
interface PeerController extends AutoCloseable {
  /** What the report calls it, with its version. */
  String name();

  KubernetesClient kube();

  /** The {@code nodeClassRef} of the benchmark's NodePool: the node class this controller's stack has. */
  Map<String, String> nodeClassRef();

  /** The controller's own process. */
  long controllerPid();

  /** A server the controller needs beside the API server (Farrier's Temporal), reported on its own line. */
  OptionalLong serverPid();

  @Override
  void close();
}

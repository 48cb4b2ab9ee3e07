package dev.farrier.worker;

import dev.farrier.activities.headroom.HeadroomReconciler;
import dev.farrier.activities.kube.Fabric8Cluster;
import dev.farrier.activities.kube.Fabric8PlaceholderWorkloads;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the {@link HeadroomReconciler} every {@value #PERIOD_SECONDS} seconds over the cached cluster: each NodePool's
 * {@code farrier.dev/headroom} becomes its placeholder Deployment in {@code farrier.headroom.namespace} (empty: the
 * worker's own, {@code POD_NAMESPACE}, else the Lease's, else the Kubernetes client's, else {@code default}; the worker's
 * RBAC lets it create and delete Deployments only in its own). A plain loop like {@link StatusLoop}: each pass derives
 * everything from the cluster and writes only what differs; it runs on the Lease holder only ({@link LeaderLoops}).
 */
@Singleton
public class HeadroomLoop implements LeaderLoops.Loop {
  private static final Logger log = LoggerFactory.getLogger(HeadroomLoop.class);
  static final long PERIOD_SECONDS = 5;

  private final HeadroomReconciler reconciler;
  private ScheduledExecutorService executor;

  public HeadroomLoop(Fabric8Cluster cluster, KubernetesClient kube, @Value("${farrier.headroom.namespace:}") String namespace,
      @Value("${farrier.leader-election.namespace:}") String leaseNamespace, @Value("${farrier.headroom.image}") String image) {
    this.reconciler = new HeadroomReconciler(cluster, new Fabric8PlaceholderWorkloads(kube),
        firstSet(namespace, System.getenv("POD_NAMESPACE"), leaseNamespace, kube.getNamespace(), "default"), image, Clock.systemUTC());
  }

  private static String firstSet(String... candidates) {
    for (String candidate : candidates) {
      if (candidate != null && !candidate.isBlank()) {
        return candidate;
      }
    }
    throw new IllegalStateException("unreachable: the last candidate is set");
  }

  @Override
  public void start() {
    executor = Daemons.scheduler("farrier-headroom");
    executor.scheduleWithFixedDelay(this::pass, 0, PERIOD_SECONDS, TimeUnit.SECONDS);
  }

  private void pass() {
    try {
      reconciler.reconcile();
    } catch (RuntimeException e) {
      // The next pass tries again; a stuck API server must not kill the loop.
      log.warn("headroom pass failed: {}", e.toString());
    }
  }

  @Override
  public boolean stop() {
    return Daemons.stop(executor);
  }
}

package dev.farrier.worker;

import dev.farrier.activities.kube.Fabric8Cluster;
import dev.farrier.activities.split.CapacitySplitter;
import dev.farrier.activities.split.Fabric8SplitWrites;
import dev.farrier.activities.split.SplitWorkload;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The spot / on-demand split per workload ({@code farrier.dev/on-demand-min}, docs/capacity-split.md): every
 * {@link #PERIOD_MILLIS} a {@link CapacitySplitter} pass over the annotated Deployments and StatefulSets, on the Lease
 * holder only. Its informers of Deployments and StatefulSets start with the loop and are not waited for: until they
 * have synced a pass does nothing (a cluster that denies the worker their list shows as the informers' retries in the
 * log, never as a Lease given up). Its pod patches go through a client whose requests are bounded by
 * {@link #REQUEST_MILLIS} without retries; evictions and ReplicaSet reads through {@code PodEvictions}' own bounded
 * client; Events through the cached cluster's {@code EventRecorder} (the worker's main client, with its retries). A
 * failing pass (reads, writes, or a workload that does not read) is logged and the next one runs: the loop never ends
 * on an exception.
 */
@Singleton
public class CapacitySplitLoop implements LeaderLoops.Loop {
  private static final Logger log = LoggerFactory.getLogger(CapacitySplitLoop.class);
  static final long PERIOD_MILLIS = 1_000;
  static final int REQUEST_MILLIS = 2_000;

  private final KubernetesClient kube;
  private final Fabric8Cluster cluster;
  private KubernetesClient bounded;
  private SharedIndexInformer<Deployment> deployments;
  private SharedIndexInformer<StatefulSet> statefulSets;
  private ScheduledExecutorService executor;
  private volatile boolean stopping;

  /** @param cluster the cached cluster: pod, node and NodePool lists from the informers, evictions and pod Events */
  public CapacitySplitLoop(KubernetesClient kube, Fabric8Cluster cluster) {
    this.kube = kube;
    this.cluster = cluster;
  }

  @Override
  public void start() {
    stopping = false;
    bounded = new KubernetesClientBuilder().withConfig(new ConfigBuilder(kube.getConfiguration())
        .withRequestRetryBackoffLimit(0).withRequestTimeout(REQUEST_MILLIS).withConnectionTimeout(REQUEST_MILLIS).build()).build();
    var splitter = new CapacitySplitter(cluster, new Fabric8SplitWrites(bounded), cluster, cluster, cluster::readReplicaSet, Clock.systemUTC());
    deployments = kube.apps().deployments().inAnyNamespace().runnableInformer(0);
    statefulSets = kube.apps().statefulSets().inAnyNamespace().runnableInformer(0);
    deployments.start();
    statefulSets.start();
    executor = Daemons.scheduler("farrier-capacity-split");
    executor.scheduleWithFixedDelay(() -> pass(splitter), PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
  }

  private void pass(CapacitySplitter splitter) {
    if (!deployments.hasSynced() || !statefulSets.hasSynced()) {
      return;
    }
    passSafely(() -> Stream.concat(deployments.getStore().list().stream().map(SplitWorkload::of),
        statefulSets.getStore().list().stream().map(SplitWorkload::of)).filter(Objects::nonNull).toList(),
        splitter, () -> stopping || Thread.currentThread().isInterrupted());
  }

  /**
   * One pass, reading the workloads included, that never throws: an exception escaping a
   * {@code scheduleWithFixedDelay} task would end the loop for good, silently.
   */
  static void passSafely(Supplier<List<SplitWorkload>> workloads, CapacitySplitter splitter, BooleanSupplier stopping) {
    try {
      splitter.pass(workloads.get(), stopping);
    } catch (RuntimeException e) {
      // The next pass decides again from the cache; an API server outage or one odd object must not end the loop.
      log.warn("capacity split pass failed: {}", e.toString());
    }
  }

  @Override
  public boolean stop() {
    stopping = true;
    boolean stopped = Daemons.stop(executor);
    if (deployments != null) {
      deployments.close();
      statefulSets.close();
    }
    if (bounded != null) {
      bounded.close();
    }
    return stopped;
  }
}

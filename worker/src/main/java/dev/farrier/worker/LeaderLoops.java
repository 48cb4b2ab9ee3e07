package dev.farrier.worker;

import dev.farrier.worker.config.LeaderElectionSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the loops outside workflows on one replica at a time. Workflows are single by id whatever the number of
 * workers; these loops are not, so they run only while this worker holds the Lease (fabric8's leader election):
 * started when it is acquired, stopped when it is lost or released. A lost election starts over after a retry
 * period; closing releases the Lease, so the other replica takes over at once instead of after the lease time.
 */
public final class LeaderLoops implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LeaderLoops.class);

  /** A loop that may start and stop many times as leadership comes and goes. */
  public interface Loop {
    void start();

    void stop();
  }

  private final KubernetesClient kube;
  private final LeaderElectionSettings settings;
  private final List<Loop> loops;
  private final String namespace;
  private final String identity;
  private final ScheduledExecutorService retries = Daemons.scheduler("farrier-leader-election");
  private CompletableFuture<?> election;
  private boolean running;
  private boolean closed;

  public LeaderLoops(KubernetesClient kube, LeaderElectionSettings settings, List<Loop> loops) {
    this.kube = kube;
    this.settings = settings;
    this.loops = List.copyOf(loops);
    this.namespace = firstSet(settings.namespace(), System.getenv("POD_NAMESPACE"), kube.getNamespace());
    this.identity = firstSet(settings.identity(), System.getenv("POD_NAME"), hostName() + "_" + UUID.randomUUID());
    if (settings.enabled() && namespace == null) {
      throw new IllegalArgumentException("farrier.leader-election.namespace (FARRIER_LEADER_ELECTION_NAMESPACE) is required outside a pod");
    }
  }

  public synchronized void start() {
    if (!settings.enabled()) {
      log.info("leader election off: this worker runs the loops outside workflows");
      startLoops();
      return;
    }
    elect();
  }

  public String identity() {
    return identity;
  }

  /** The Lease's {@code namespace/name}. */
  public String lease() {
    return namespace + "/" + settings.name();
  }

  private synchronized void elect() {
    if (closed) {
      return;
    }
    var config = new LeaderElectionConfigBuilder()
        .withName(settings.name())
        .withLock(new LeaseLock(namespace, settings.name(), identity))
        .withLeaseDuration(settings.leaseDuration())
        .withRenewDeadline(settings.renewDeadline())
        .withRetryPeriod(settings.retryPeriod())
        .withReleaseOnCancel(true)
        .withLeaderCallbacks(new LeaderCallbacks(this::startLoops, this::stopLoops,
            leader -> log.info("leader of {} is now {}", lease(), leader)))
        .build();
    var started = kube.leaderElector().withConfig(config).build().start();
    election = started;
    // The elector ends when leadership is lost (it stops leading first); a new one stands for election again.
    started.whenComplete((ignored, failure) -> {
      if (failure != null && !started.isCancelled()) {
        log.warn("leader election for {} ended: {}", lease(), failure.toString());
      }
      synchronized (this) {
        if (!closed) {
          retries.schedule(this::elect, settings.retryPeriod().toMillis(), TimeUnit.MILLISECONDS);
        }
      }
    });
  }

  private synchronized void startLoops() {
    if (running || closed) {
      return;
    }
    running = true;
    log.info("leading {} as {}: running pending pods, status refresh and garbage collection", lease(), identity);
    loops.forEach(Loop::start);
  }

  private synchronized void stopLoops() {
    if (!running) {
      return;
    }
    running = false;
    log.info("no longer leading {} as {}: loops stopped", lease(), identity);
    loops.forEach(Loop::stop);
  }

  /** Whether this worker runs the loops now. */
  public synchronized boolean leading() {
    return running;
  }

  /** Stops the loops and gives the Lease back. */
  @Override
  public void close() {
    CompletableFuture<?> current;
    synchronized (this) {
      closed = true;
      current = election;
    }
    retries.shutdownNow();
    if (current != null) {
      current.cancel(true); // the elector releases the Lease and stops leading
    }
    stopLoops();
  }

  private static String firstSet(String... values) {
    for (var v : values) {
      if (v != null && !v.isBlank()) {
        return v;
      }
    }
    return null;
  }

  private static String hostName() {
    try {
      return Objects.requireNonNullElse(InetAddress.getLocalHost().getHostName(), "farrier");
    } catch (UnknownHostException e) {
      return "farrier";
    }
  }
}

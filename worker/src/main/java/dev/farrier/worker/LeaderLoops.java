package dev.farrier.worker;

import dev.farrier.worker.config.LeaderElectionSettings;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the loops outside workflows on one replica at a time. Workflows are single by id whatever the number of
 * workers; these loops are not, so they run only while this worker holds the Lease (fabric8's leader election).
 *
 * <ul>
 *   <li>Loops start and stop on a thread of their own, in order, never on the elector's: a slow start (an informer's
 *       first list) must not hold up the Lease's renewal. A loop that cannot start gives the Lease up, so another
 *       replica (or this one, at the next election) runs them all rather than this one running some.
 *   <li>Losing the Lease stops the loops and waits for their passes (a bound of {@link Loop#STOP_BOUND}); a pass that
 *       will not stop could act beside the new leader, so then {@code unstoppable} runs (the worker exits, as
 *       controller-runtime does).
 *   <li>Closing stops the loops first and only then releases the Lease, so the other replica takes over at once but
 *       never while a pass of this one still runs.
 *   <li>The election has its own Kubernetes client, without retries and with short timeouts: a renewal stuck in a
 *       retry backoff could otherwise outlast the lease.
 * </ul>
 */
public final class LeaderLoops implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LeaderLoops.class);
  private static final int ELECTION_REQUEST_MILLIS = 3_000;

  /** A loop that may start and stop many times as leadership comes and goes. */
  public interface Loop {
    /** How long {@link #stop()} may wait for a pass in progress. */
    Duration STOP_BOUND = Duration.ofSeconds(3);

    void start();

    /** Stops and waits up to {@link #STOP_BOUND} for a pass in progress; false if one still runs. */
    boolean stop();
  }

  private final KubernetesClient kube;
  private final LeaderElectionSettings settings;
  private final List<Loop> loops;
  private final Runnable unstoppable;
  private final String namespace;
  private final String identity;
  private final ScheduledExecutorService elections = Daemons.scheduler("farrier-leader-election");
  private final ScheduledExecutorService loopThread = Daemons.scheduler("farrier-leader-loops");
  private KubernetesClient electionClient;
  private CompletableFuture<?> election;
  private volatile boolean running;
  private volatile boolean closed;
  private boolean steppedAside;

  /**
   * @param unstoppable what to do when leadership is lost while a loop's pass will not stop (the worker exits)
   */
  public LeaderLoops(KubernetesClient kube, LeaderElectionSettings settings, List<Loop> loops, Runnable unstoppable) {
    this.kube = kube;
    this.settings = settings;
    this.loops = List.copyOf(loops);
    this.unstoppable = unstoppable;
    this.namespace = firstSet(settings.namespace(), System.getenv("POD_NAMESPACE"), kube.getNamespace());
    this.identity = firstSet(settings.identity(), System.getenv("POD_NAME"), hostName() + "_" + UUID.randomUUID());
    if (settings.enabled() && namespace == null) {
      throw new IllegalArgumentException("farrier.leader-election.namespace (FARRIER_LEADER_ELECTION_NAMESPACE) is required outside a pod");
    }
  }

  public synchronized void start() {
    if (!settings.enabled()) {
      log.info("leader election off: this worker runs the loops outside workflows");
      loopThread.execute(this::startLoops);
      return;
    }
    electionClient = new KubernetesClientBuilder().withConfig(new ConfigBuilder(kube.getConfiguration())
        .withRequestRetryBackoffLimit(0).withRequestTimeout(ELECTION_REQUEST_MILLIS).withConnectionTimeout(ELECTION_REQUEST_MILLIS)
        .build()).build();
    elect();
  }

  public String identity() {
    return identity;
  }

  /** The Lease's {@code namespace/name}. */
  public String lease() {
    return namespace + "/" + settings.name();
  }

  /** Whether this worker runs the loops now. */
  public boolean leading() {
    return running;
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
        .withLeaderCallbacks(new LeaderCallbacks(() -> loopThread.execute(this::startLoops), () -> loopThread.execute(this::stopLoops),
            leader -> log.info("leader of {} is now {}", lease(), leader)))
        .build();
    var started = electionClient.leaderElector().withConfig(config).build().start();
    election = started;
    // The elector ends when leadership is lost (it stops leading first); a new one stands for election again.
    started.whenComplete((ignored, failure) -> {
      if (failure != null && !started.isCancelled()) {
        log.warn("leader election for {} ended: {}", lease(), failure.toString());
      }
      synchronized (this) {
        if (!closed) {
          // After giving the Lease up, stand aside for a lease duration: another replica gets it cleanly.
          var wait = steppedAside ? settings.leaseDuration() : settings.retryPeriod();
          steppedAside = false;
          elections.schedule(this::elect, wait.toMillis(), TimeUnit.MILLISECONDS);
        }
      }
    });
  }

  /** On the loop thread. */
  private void startLoops() {
    if (running || closed) {
      return;
    }
    running = true;
    log.info("leading {} as {}: running pending pods, status refresh and garbage collection", lease(), identity);
    for (var loop : loops) {
      try {
        loop.start();
      } catch (RuntimeException e) {
        log.error("leading {} but {} cannot start ({}): giving the Lease up for {}", lease(), loop.getClass().getName(), e.toString(),
            settings.leaseDuration());
        stopLoops();
        giveUp();
        return;
      }
    }
  }

  /** On the loop thread. */
  private void stopLoops() {
    if (!running) {
      return;
    }
    running = false;
    boolean stopped = true;
    for (var loop : loops.reversed()) {
      stopped &= loop.stop();
    }
    if (stopped) {
      log.info("no longer leading {} as {}: loops stopped", lease(), identity);
    } else if (!closed) {
      log.error("no longer leading {} as {}, but a pass did not stop within {}: it could act beside the new leader",
          lease(), identity, Loop.STOP_BOUND);
      unstoppable.run();
    }
  }

  /** Cancels this election (releasing the Lease if held); a new one starts after a retry period. */
  private synchronized void giveUp() {
    steppedAside = true;
    if (election != null) {
      election.cancel(true);
    }
  }

  /** Stops the loops (waiting for their passes), then gives the Lease back. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    elections.shutdownNow();
    try {
      loopThread.submit(this::stopLoops).get(Loop.STOP_BOUND.toMillis() * (loops.size() + 1), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      log.warn("stopping the loops: {}", e.toString());
    }
    loopThread.shutdownNow();
    CompletableFuture<?> current;
    synchronized (this) {
      current = election;
    }
    if (current != null) {
      current.cancel(true); // the elector releases the Lease
    }
    if (electionClient != null) {
      electionClient.close();
    }
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

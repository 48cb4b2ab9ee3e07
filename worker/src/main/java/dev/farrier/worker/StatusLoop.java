package dev.farrier.worker;

import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.status.StatusRefresher;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the {@link StatusRefresher} every 10 seconds, and at once (coalesced) when an EC2NodeClass or NodePool is
 * created, changes its spec or is deleted: a class applied together with its NodePool and pods is resolved before
 * the first launch needs it, and a changed AMI selector reaches {@code status.amis} (and so drift) within a second.
 * It is a plain loop, not a workflow: status is derived afresh on every pass, so there is nothing to make durable;
 * it runs on the leader only ({@link LeaderLoops}).
 */
@Singleton
public class StatusLoop implements LeaderLoops.Loop {
  private static final Logger log = LoggerFactory.getLogger(StatusLoop.class);
  static final long PERIOD_SECONDS = 10;

  private final StatusRefresher refresher;
  private ScheduledExecutorService executor;

  private final KubernetesClient kube;
  private final AtomicBoolean passRequested = new AtomicBoolean();
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

  /** @param refresher over the cached cluster ({@link TemporalWorkerFactory#statusRefresher}) */
  public StatusLoop(StatusRefresher refresher, KubernetesClient kube) {
    this.refresher = refresher;
    this.kube = kube;
  }

  @Override
  public void start() {
    passRequested.set(false); // a request dropped by the last stop must not block every later one
    executor = Daemons.scheduler("farrier-status");
    executor.scheduleWithFixedDelay(this::pass, 0, PERIOD_SECONDS, TimeUnit.SECONDS);
    informers.add(kube.resources(EC2NodeClass.class).inform(new SpecChanges<>(), 0));
    informers.add(kube.resources(NodePool.class).inform(new SpecChanges<>(), 0));
  }

  /** At most one extra pass queued however many changes arrive while one runs. */
  private void requestPass() {
    if (passRequested.compareAndSet(false, true)) {
      try {
        executor.execute(() -> {
          passRequested.set(false);
          pass();
        });
      } catch (RejectedExecutionException e) {
        passRequested.set(false); // stopped: leadership moved on, the next leader passes at once
      }
    }
  }

  /** Creation, deletion and spec changes (a new generation); status writes, this loop's own included, are not. */
  private final class SpecChanges<T extends HasMetadata> implements ResourceEventHandler<T> {
    @Override
    public void onAdd(T object) {
      requestPass();
    }

    @Override
    public void onUpdate(T before, T after) {
      if (!Objects.equals(before.getMetadata().getGeneration(), after.getMetadata().getGeneration())) {
        requestPass();
      }
    }

    @Override
    public void onDelete(T object, boolean finalStateUnknown) {
      requestPass();
    }
  }

  private void pass() {
    try {
      refresher.refresh();
    } catch (RuntimeException e) {
      // The next pass tries again; a stuck API server must not kill the loop.
      log.warn("status refresh failed: {}", e.toString());
    }
  }

  @Override
  public boolean stop() {
    informers.forEach(SharedIndexInformer::close);
    informers.clear();
    return Daemons.stop(executor);
  }
}

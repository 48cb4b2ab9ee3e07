package dev.farrier.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.localstack.LocalStack;
import dev.farrier.localstack.LocalStackExtension;
import dev.farrier.worker.config.LeaderElectionSettings;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Leader election on a real API server: of two workers exactly one runs the loops; closing it hands the Lease over at
 * once; a worker whose Lease is taken from it stops its loops.
 */
@ExtendWith(LocalStackExtension.class)
class LeaderLoopsIT {
  private static final String NAMESPACE = "leader-it";

  private final KubernetesClient kube;
  private final List<AutoCloseable> open = new java.util.ArrayList<>();
  private final AtomicInteger unstoppable = new AtomicInteger();

  LeaderLoopsIT(LocalStack stack) throws Exception {
    this.kube = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(stack.kubeconfig()))).build();
  }

  /** Counts starts and stops; running means started more often than stopped. */
  static class CountingLoop implements LeaderLoops.Loop {
    final AtomicInteger starts = new AtomicInteger();
    final AtomicInteger stops = new AtomicInteger();

    @Override
    public void start() {
      starts.incrementAndGet();
    }

    @Override
    public boolean stop() {
      stops.incrementAndGet();
      return true;
    }

    boolean running() {
      return starts.get() > stops.get();
    }
  }

  @BeforeEach
  void namespace() {
    kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build()).serverSideApply();
  }

  @AfterEach
  void close() throws Exception {
    for (var c : open.reversed()) {
      c.close();
    }
    kube.close();
  }

  private LeaderLoops worker(String lease, String identity, LeaderLoops.Loop... loop) {
    var settings = new LeaderElectionSettings(true, NAMESPACE, lease, identity, Duration.ofSeconds(6), Duration.ofSeconds(4),
        Duration.ofMillis(500));
    var loops = new LeaderLoops(kube, settings, List.of(loop), () -> unstoppable.incrementAndGet());
    open.add(loops);
    loops.start();
    return loops;
  }

  @Test
  void exactlyOneOfTwoRunsTheLoopsAndClosingHandsThemOver() throws Exception {
    var a = new CountingLoop();
    var b = new CountingLoop();
    var first = worker("handover", "worker-a", a);
    await(a::running, "the first worker leads");
    var second = worker("handover", "worker-b", b);
    // Several retry periods: the second keeps standing for election and keeps losing.
    Thread.sleep(2_000);
    assertFalse(b.running(), "the second worker runs nothing while the first holds the Lease");
    assertEquals("worker-a", holder("handover"));

    first.close();
    assertFalse(a.running());
    await(b::running, "the second worker takes over the released Lease");
    assertTrue(second.leading());
    assertEquals("worker-b", holder("handover"));
    assertEquals(1, a.starts.get(), "the first worker ran its loops once");
  }

  @Test
  void aWorkerWhoseLeaseIsTakenStopsItsLoopsAndStandsAgain() throws Exception {
    var a = new CountingLoop();
    worker("taken", "worker-a", a);
    await(a::running, "the worker leads");
    takeLease("taken", 2);
    await(() -> !a.running(), "the worker stops its loops once the Lease is someone else's");
    assertEquals(1, a.stops.get());
    assertEquals(0, unstoppable.get(), "its passes stopped in time: no exit asked for");
    // The other holder does not renew: the worker stands again and runs its loops once more.
    await(() -> a.starts.get() == 2 && a.running(), "the worker leads again once the other holder's lease ran out");
  }

  @Test
  void aLoopThatCannotStartGivesTheLeaseUpRatherThanRunningSomeLoops() throws Exception {
    var a = new CountingLoop();
    var failing = new CountingLoop() {
      @Override
      public void start() {
        super.start();
        throw new IllegalStateException("the API server refused the informer's list");
      }
    };
    worker("half", "worker-a", a, failing);
    await(() -> failing.starts.get() >= 1, "the worker leads and tries its loops");
    var b = new CountingLoop();
    worker("half", "worker-b", b);
    await(b::running, "the other worker takes the Lease the first gave up");
    assertEquals("worker-b", holder("half"));
    assertFalse(a.running(), "the loop that did start was stopped again");
  }

  @Test
  void losingTheLeaseWhileAPassWillNotStopAsksForAnExit() throws Exception {
    var stuck = new CountingLoop() {
      @Override
      public boolean stop() {
        super.stop();
        return false;
      }
    };
    worker("stuck", "worker-a", stuck);
    await(stuck::running, "the worker leads");
    takeLease("stuck", 3600);
    await(() -> unstoppable.get() == 1, "the worker asks to exit: its pass could act beside the new leader");
  }

  /**
   * Another holder takes the Lease (as after a partition that outlived the lease) for {@code seconds}. The worker
   * renews every half second, so the take-over retries on a conflict as a real contender would.
   */
  private void takeLease(String lease, int seconds) {
    for (int attempt = 1; ; attempt++) {
      try {
        kube.resources(Lease.class).inNamespace(NAMESPACE).withName(lease).edit(l -> {
          l.getSpec().setHolderIdentity("someone-else");
          l.getSpec().setRenewTime(ZonedDateTime.now());
          l.getSpec().setLeaseDurationSeconds(seconds);
          return l;
        });
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == 20) {
          throw e;
        }
      }
    }
  }

  private String holder(String lease) {
    return kube.resources(Lease.class).inNamespace(NAMESPACE).withName(lease).get().getSpec().getHolderIdentity();
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      if (condition.getAsBoolean()) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("not within 30 s: " + what);
  }
}

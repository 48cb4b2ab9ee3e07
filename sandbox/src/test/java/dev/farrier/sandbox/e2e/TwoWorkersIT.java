package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.Ownership;
import dev.farrier.activities.cloud.simulated.CloudCall;
import dev.farrier.activities.cloud.simulated.CloudCallLog;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.sandbox.DriftScenario;
import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.sandbox.WorkerProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Two workers started from the Helm chart's rendered settings (its environment, its RBAC, its service account), as
 * the chart's two replicas run: the drift blueprint completes once, garbage collection acts on one of them only, the
 * metrics show the replacement, kill -9 of the leader moves the loops to the other, and readiness follows Temporal.
 */
class TwoWorkersIT {
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  void twoReplicasOneActor() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("two-workers"), "e2e-two", 0)) {
      var workers = List.of(env.startWorker(SandboxEnvironment.FAST_GC), env.startWorker(SandboxEnvironment.FAST_GC));
      E2e.await("one worker to hold the Lease", E2e.TIMEOUT, () -> env.leader() != null);
      int leader = number(env.leader());
      var follower = workers.get(2 - leader);
      assertTrue(workers.get(leader - 1).ownLog().contains("leading farrier/farrier-leader-election as worker-" + leader));
      assertFalse(follower.ownLog().contains("leading farrier/"), "the other worker runs no loops:\n" + follower.tail(20));

      // The drift blueprint with both polling: one launch, one termination, the PDB kept.
      var scenario = E2e.scenario(env);
      var old = scenario.provision("1.34");
      var up = scenario.upgrade(old, "1.35");
      assertEquals("Done", up.result().outcome());
      E2e.assertOneLaunchOneTerminate(env, up.switchedAt());
      E2e.assertInstancesMatchNodes(env);

      // An instance Farrier launched that no NodeClaim owns: garbage collected once, by the leader alone.
      var cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(env.cloudDir()).withCluster(env.cluster()));
      var orphan = cloud.registerForeignInstance("m5.large", cloud.get(old.instanceId()).orElseThrow().zone(),
          Ownership.launchTags(env.cluster(), DriftScenario.NODE_POOL, DriftScenario.NODE_POOL + "-gone"));
      String collected = "gc terminated orphan instance=" + orphan.id();
      E2e.await("garbage collection to terminate " + orphan.id(), E2e.TIMEOUT, () -> logged(workers.get(leader - 1), collected));
      assertFalse(logged(follower, collected), "the follower collected too:\n" + follower.tail(20));
      assertEquals(1, new CloudCallLog(env.cloudDir()).read(CloudCall.Operation.TERMINATE).stream()
          .filter(c -> orphan.id().equals(c.instanceId())).count(), "terminations of the orphan");

      // Each worker counts what its own activities did; together they show the one drift replacement.
      assertEquals(1.0, sum(workers, "karpenter_nodeclaims_disrupted_total", "reason=\"drifted\""));
      assertEquals(1.0, sum(workers, "karpenter_nodeclaims_terminated_total", ""));
      assertTrue(sum(workers, "karpenter_nodeclaims_created_total", "reason=\"drifted\"") == 1.0,
          "the replacement's NodeClaim counted with its reason");
      assertTrue(sum(workers, "temporal_workflow_completed_total", "") >= 1.0, "the SDK's own metrics are there too");

      // kill -9 of the leader: no hand-over, the Lease runs out and the other worker takes the loops.
      workers.get(leader - 1).kill9();
      E2e.await("worker-" + (3 - leader) + " to take the Lease over", Duration.ofMinutes(2),
          () -> ("worker-" + (3 - leader)).equals(env.leader()));
      E2e.await("worker-" + (3 - leader) + " to run the loops", Duration.ofSeconds(30),
          () -> logged(follower, "leading farrier/farrier-leader-election as worker-" + (3 - leader)));

      // Readiness follows Temporal: false while it is down, true when it is back.
      assertEquals(200, readyz(follower).statusCode());
      env.stack().stopTemporal();
      E2e.await("/readyz to say Temporal is down", Duration.ofMinutes(1), () -> {
        var ready = readyz(follower);
        return ready.statusCode() == 503 && ready.body().contains("temporal");
      });
      assertEquals(200, http.send(HttpRequest.newBuilder(follower.healthUrl().resolve("/healthz")).build(),
          HttpResponse.BodyHandlers.ofString()).statusCode(), "alive all the same");
      env.stack().startTemporal();
      E2e.await("/readyz to be ready again", Duration.ofMinutes(1), () -> readyz(follower).statusCode() == 200);
      assertTrue(follower.alive());
    }
  }

  private static int number(String identity) {
    assertTrue(identity.matches("worker-[12]"), identity);
    return Integer.parseInt(identity.substring("worker-".length()));
  }

  private static boolean logged(WorkerProcess worker, String line) {
    try {
      return worker.ownLog().contains(line);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private HttpResponse<String> readyz(WorkerProcess worker) {
    try {
      return http.send(HttpRequest.newBuilder(worker.healthUrl().resolve("/readyz")).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The sum over both workers' {@code /metrics} of the samples of {@code name} whose labels contain {@code label}. */
  private double sum(List<WorkerProcess> workers, String name, String label) throws Exception {
    var sample = Pattern.compile("^" + Pattern.quote(name) + "(\\{[^}]*})? (\\S+)$", Pattern.MULTILINE);
    double total = 0;
    for (var worker : workers) {
      if (!worker.alive()) {
        continue;
      }
      String body = http.send(HttpRequest.newBuilder(URI.create(worker.metricsUrl() + "/metrics")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      var m = sample.matcher(body);
      while (m.find()) {
        if (m.group(1) == null ? label.isEmpty() : m.group(1).contains(label)) {
          total += Double.parseDouble(m.group(2));
        }
      }
    }
    return total;
  }
}

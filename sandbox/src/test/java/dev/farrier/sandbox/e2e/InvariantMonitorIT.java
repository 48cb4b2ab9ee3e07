package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.Ownership;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.sandbox.DriftScenario;
import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.sandbox.chaos.InvariantMonitor;
import dev.farrier.sandbox.chaos.ObservationCollector;
import dev.farrier.sandbox.chaos.Violation;
import dev.farrier.sandbox.chaos.Violation.Invariant;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The chaos soak's monitor on the real parts (simulated cloud, real worker, Kubernetes and Temporal): a provisioned
 * fleet beside an instance Farrier did not launch reads as settled with nothing broken; then the fleet is broken on
 * purpose, in the cloud and in the cluster, and each break is reported under its invariant, naming what broke.
 */
class InvariantMonitorIT {
  @Test
  void aHealthyFleetReadsSettledAndEachDeliberateBreakIsReportedUnderItsInvariant() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("invariant-monitor"), "e2e-monitor", 0)) {
      var cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(env.cloudDir()));
      Instance bystander = cloud.registerForeignInstance("m5.large", "us-east-1a", Map.of("team", "someone-else"));
      env.startWorker();
      var provisioned = E2e.scenario(env).provision("1.34");
      var monitor = new InvariantMonitor(env.cluster(), Set.of(bystander.id()), Duration.ZERO);
      var collector = new ObservationCollector(env.kube(), cloud, env.temporal(), env.cluster(), Clock.systemUTC());
      var last = new AtomicReference<List<Violation>>();
      E2e.await("the provisioned fleet to read settled", E2e.TIMEOUT, () -> {
        last.set(monitor.settled(collector.collect()));
        return last.get().isEmpty();
      });

      // A second live instance carrying the claim's exact tags, as a launch that ran twice would leave.
      var twin = cloud.registerForeignInstance("m5.large", "us-east-1b",
          Ownership.launchTags(env.cluster(), DriftScenario.NODE_POOL, provisioned.nodeClaim()));
      // An instance of Farrier's whose NodeClaim does not exist (the monitor's grace is zero here).
      var orphan = cloud.registerForeignInstance("m5.large", "us-east-1c",
          Ownership.launchTags(env.cluster(), DriftScenario.NODE_POOL, "no-such-claim"));
      // A pod no NodePool can take: the fleet cannot settle.
      env.kube().pods().inNamespace(DriftScenario.NAMESPACE).resource(new PodBuilder().withNewMetadata().withName("stranded").endMetadata()
          .withNewSpec().addToNodeSelector("example.com/nowhere", "true").addNewContainer().withName("c").withImage("registry.k8s.io/pause:3.10")
          .endContainer().endSpec().build()).create();
      monitor.observe(collector.collect()); // the orphan's first sighting
      Thread.sleep(1_100);
      List<Violation> found = monitor.settled(collector.collect());

      assertTrue(found.stream().anyMatch(v -> v.invariant() == Invariant.ONE_INSTANCE_PER_CLAIM && v.subject().equals(provisioned.nodeClaim())
          && v.detail().contains(twin.id()) && v.detail().contains(provisioned.instanceId())), found.toString());
      assertTrue(found.stream().anyMatch(v -> v.invariant() == Invariant.NO_ORPHAN_PAST_GRACE && v.subject().equals(orphan.id())), found.toString());
      assertTrue(found.stream().anyMatch(v -> v.invariant() == Invariant.SETTLED && v.subject().equals(DriftScenario.NAMESPACE + "/stranded")),
          found.toString());
      assertEquals(List.of(), found.stream().filter(v -> v.invariant() == Invariant.FOREIGN_UNTOUCHED).toList(), "the bystander runs on");
      assertTrue(monitor.checks() >= 3, "every observation checked: " + monitor.checks());
    }
  }
}

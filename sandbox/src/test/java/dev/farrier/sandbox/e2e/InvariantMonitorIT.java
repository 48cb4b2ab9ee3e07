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
import dev.farrier.sandbox.chaos.Observation.PodState;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import java.util.ArrayList;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The chaos soak's monitor on the real parts (simulated cloud, real worker, Kubernetes and Temporal): a provisioned
 * fleet beside an instance Farrier did not launch reads as settled with nothing broken; then the fleet is broken on
 * purpose, in the cluster and in the cloud, and each break is reported under its invariant, naming what broke: pods
 * leaving are seen through the collector's real watch (an eviction through the Eviction API carries the API server's
 * {@code DisruptionTarget} reason {@code EvictionByEvictionAPI}).
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
      collector.start();
      var last = new AtomicReference<List<Violation>>();
      E2e.await("the provisioned fleet to read settled", E2e.TIMEOUT, () -> {
        last.set(monitor.settled(collector.collect()));
        return last.get().isEmpty();
      });

      // Pods leaving through the real watch: a DaemonSet pod tolerating everything evicted through the Eviction API
      // (Farrier never drains it), and a pod of a Deployment at its PDB's floor deleted directly (past the PDB).
      var kube = env.kube();
      String ns = DriftScenario.NAMESPACE;
      kube.apps().daemonSets().inNamespace(ns).resource(new DaemonSetBuilder().withNewMetadata().withName("agent").endMetadata()
          .withNewSpec().withNewSelector().addToMatchLabels("app", "agent").endSelector().withNewTemplate().withNewMetadata()
          .addToLabels("app", "agent").endMetadata().withNewSpec().addNewToleration().withOperator("Exists").endToleration()
          .addNewContainer().withName("c").withImage("registry.k8s.io/pause:3.10").endContainer().endSpec().endTemplate().endSpec().build()).create();
      kube.apps().deployments().inNamespace(ns).resource(new DeploymentBuilder().withNewMetadata().withName("guarded").endMetadata()
          .withNewSpec().withReplicas(2).withNewSelector().addToMatchLabels("app", "guarded").endSelector().withNewTemplate().withNewMetadata()
          .addToLabels("app", "guarded").endMetadata().withNewSpec()
          .addNewContainer().withName("c").withImage("registry.k8s.io/pause:3.10").endContainer().endSpec().endTemplate().endSpec().build()).create();
      kube.policy().v1().podDisruptionBudget().inNamespace(ns).resource(new PodDisruptionBudgetBuilder().withNewMetadata().withName("guarded")
          .endMetadata().withNewSpec().withMinAvailable(new IntOrString(2)).withNewSelector().addToMatchLabels("app", "guarded").endSelector()
          .endSpec().build()).create();
      E2e.await("the agent and both guarded pods Ready, the PDB counting 2", E2e.TIMEOUT, () -> {
        var now = collector.collect();
        monitor.observe(now);
        return now.pods().stream().filter(p -> p.healthy() && p.labels().get("app") != null && List.of("agent", "guarded").contains(p.labels().get("app")))
            .count() == 3 && now.pdbs().stream().anyMatch(p -> p.name().equals("guarded") && p.expectedPods() == 2);
      });
      String agent = kube.pods().inNamespace(ns).withLabel("app", "agent").list().getItems().getFirst().getMetadata().getName();
      String guarded = kube.pods().inNamespace(ns).withLabel("app", "guarded").list().getItems().getFirst().getMetadata().getName();
      assertTrue(kube.pods().inNamespace(ns).withName(agent).evict(), "the Eviction API takes the agent: no PDB covers it");
      kube.pods().inNamespace(ns).withName(guarded).delete();
      List<Violation> podBreaks = new ArrayList<>();
      E2e.await("both pod breaks reported", E2e.TIMEOUT, () -> {
        podBreaks.addAll(monitor.observe(collector.collect()));
        return podBreaks.stream().map(Violation::invariant).collect(Collectors.toSet()).containsAll(Set.of(Invariant.PROTECTED_POD, Invariant.PDB_FLOOR));
      });
      assertTrue(podBreaks.stream().anyMatch(v -> v.invariant() == Invariant.PROTECTED_POD && v.subject().equals(ns + "/" + agent)
          && v.detail().contains("DaemonSet")), "evicted with reason " + PodState.EVICTION + ": " + podBreaks);
      assertTrue(podBreaks.stream().anyMatch(v -> v.invariant() == Invariant.PDB_FLOOR && v.subject().equals(ns + "/guarded")
          && v.detail().contains(guarded) && v.detail().contains("1 healthy, floor 2")), podBreaks.toString());
      assertEquals(2, podBreaks.size(), "nothing else broke: " + podBreaks);
      assertTrue(monitor.checksByInvariant().get(Invariant.PDB_FLOOR) >= 2, monitor.checksByInvariant().toString());

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
      collector.close();
    }
  }
}

package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.cloud.simulated.AmiCatalog;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.cloud.simulated.CloudCall;
import dev.farrier.activities.cloud.simulated.CloudCallLog;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.sandbox.BlueprintAmis;
import dev.farrier.sandbox.DriftScenario;
import dev.farrier.sandbox.SandboxEnvironment;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/** What the end-to-end tests share: run dirs kept under target/ for the logs, the scenario, the invariants. */
final class E2e {
  static final Duration TIMEOUT = Duration.ofMinutes(4);

  private E2e() {}

  /** A fresh target/e2e/NAME (kept after the run: the stack's and the workers' logs are in it). */
  static Path runDir(String name) throws IOException {
    return SandboxEnvironment.recreate(Path.of("target", "e2e", name).toAbsolutePath());
  }

  /** The on-demand price per hour of {@code type} in the simulated cloud's catalogue. */
  static double onDemandPrice(SandboxEnvironment env, String type) {
    var cloud = new dev.farrier.activities.cloud.simulated.SimulatedCloud(
        SimulatedCloudConfig.defaults(env.cloudDir()).withCluster(env.cluster()));
    return cloud.instanceTypes().stream().filter(t -> t.name().equals(type)).flatMap(t -> t.offerings().stream())
        .filter(o -> o.capacityType().equals(dev.farrier.model.WellKnown.CAPACITY_ON_DEMAND))
        .mapToDouble(dev.farrier.activities.cloud.Offering::pricePerHour).min().orElseThrow();
  }

  static DriftScenario scenario(SandboxEnvironment env) {
    var amis = new BlueprintAmis(AmiCatalog.load(SimulatedCloudConfig.DEFAULT_KUBERNETES_VERSION));
    return new DriftScenario(env.kube(), env.temporal(), env.cluster(), amis::al2, TIMEOUT);
  }

  static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        if (condition.getAsBoolean()) {
          return;
        }
      } catch (RuntimeException notYet) {
        // e.g. a query before the workflow's first task: try again
      }
      Thread.sleep(100);
    }
    throw new AssertionError("timed out waiting for " + what);
  }

  /** (3): since the AMI switch, exactly one instance was launched and exactly one terminated. */
  static void assertOneLaunchOneTerminate(SandboxEnvironment env, Instant since) {
    var calls = new CloudCallLog(env.cloudDir()).read().stream().filter(c -> !c.time().isBefore(since)).toList();
    var launches = calls.stream().filter(c -> c.operation() == CloudCall.Operation.CREATE).toList();
    var terminates = calls.stream().filter(c -> c.operation() == CloudCall.Operation.TERMINATE).toList();
    assertEquals(1, launches.size(), "launches since the switch: " + calls);
    assertEquals(1, terminates.size(), "terminations since the switch: " + calls);
  }

  /**
   * The blueprint's EC2NodeClass, selecting subnets and security groups by {@code karpenter.sh/discovery: <cluster>}
   * and naming a role, resolved in the simulated cloud: one subnet per zone, the node security group, Farrier's
   * instance profile for the role, every condition True.
   */
  static void assertNodeClassResolved(SandboxEnvironment env) {
    var cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(env.cloudDir()).withCluster(env.cluster()));
    var status = env.kube().resources(EC2NodeClass.class).withName(DriftScenario.NODE_CLASS).get().getStatus();
    assertEquals(cloud.catalog().zones(), status.subnets().stream().map(s -> s.zone()).sorted().toList());
    assertEquals(List.of(env.cluster() + "-node"), status.securityGroups().stream().map(g -> g.name()).toList());
    assertEquals("KarpenterNodeRole-" + env.cluster(), cloud.instanceProfileRole(status.instanceProfile()).orElseThrow());
    assertEquals(List.of(), status.conditionsOrEmpty().stream().filter(c -> !c.isTrue()).toList(), "conditions not True");
    assertEquals(List.of("AMIsReady", "CapacityReservationsReady", "InstanceProfileReady", "Ready", "SecurityGroupsReady", "SubnetsReady",
        "ValidationSucceeded"), status.conditionsOrEmpty().stream().map(c -> c.type()).sorted().toList(), status.conditionsOrEmpty().toString());
  }

  /** (4): every live instance has a Node and every Node an instance. */
  static void assertInstancesMatchNodes(SandboxEnvironment env) {
    var cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(env.cloudDir()).withCluster(env.cluster()));
    Set<String> instances = cloud.list(env.cluster()).stream()
        .filter(i -> !i.state().equals("shutting-down") && !i.state().equals("terminated"))
        .map(i -> i.providerId()).collect(Collectors.toCollection(TreeSet::new));
    Set<String> nodes = env.kube().nodes().list().getItems().stream()
        .map(n -> n.getSpec().getProviderID()).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(instances, nodes, "instances (left) and Nodes (right) by providerID");
  }
}

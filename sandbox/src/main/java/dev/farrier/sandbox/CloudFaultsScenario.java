package dev.farrier.sandbox;

import dev.farrier.activities.cloud.simulated.CloudCall;
import dev.farrier.activities.cloud.simulated.CloudCallLog;
import dev.farrier.activities.cloud.simulated.InjectedFault;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cloud misbehaving, played against the real worker: launches throttled, the catalogue failing with server errors
 * and answering slowly while the blueprint provisions (the pods still get their node, nothing launched twice); then
 * every offering out of capacity (the NodePool says so on a condition and in an Event) and capacity given back.
 */
final class CloudFaultsScenario {
  private final SandboxEnvironment env;
  private final Duration timeout;

  CloudFaultsScenario(SandboxEnvironment env, Duration timeout) {
    this.env = env;
    this.timeout = timeout;
  }

  SimulatedCloud cloud() {
    return new SimulatedCloud(SimulatedCloudConfig.defaults(env.cloudDir()).withCluster(env.cluster()));
  }

  /** Switches the API faults on before the blueprint is applied. */
  void injectApiFaults(PrintStream out) {
    var cloud = cloud();
    cloud.injectFault(SimulatedCloud.RUN_INSTANCES, InjectedFault.Kind.THROTTLING, Duration.ofSeconds(20), Duration.ZERO);
    cloud.injectFault(SimulatedCloud.DESCRIBE_INSTANCE_TYPES, InjectedFault.Kind.SERVER_ERROR, Duration.ofSeconds(10), Duration.ZERO);
    cloud.injectFault(SimulatedCloud.DESCRIBE_INSTANCE_TYPES, InjectedFault.Kind.SLOW, Duration.ofSeconds(30), Duration.ofSeconds(1));
    out.println("== the cloud misbehaves: RunInstances throttled for 20s, DescribeInstanceTypes failing (HTTP 500) for 10s and"
        + " answering 1s late for 30s");
  }

  /** What the faults did, once the pods run. */
  void reportApiFaults(PrintStream out) {
    Map<String, Integer> faults = new TreeMap<>();
    new CloudCallLog(env.cloudDir()).read().stream().filter(c -> c.operation() == CloudCall.Operation.FAULT)
        .forEach(c -> faults.merge(c.detail(), 1, Integer::sum));
    out.println("   calls the faults refused or slowed, retried by the activities until they answered: " + faults);
    if (!faults.containsKey("THROTTLING RunInstances")) {
      throw new IllegalStateException("the launch never met the throttling: " + faults);
    }
    var instances = cloud().list(env.cluster()).stream().filter(i -> !i.state().equals("shutting-down") && !i.state().equals("terminated"))
        .map(i -> i.providerId()).collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
    var nodes = env.kube().nodes().list().getItems().stream().map(n -> n.getSpec().getProviderID())
        .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
    if (!instances.equals(nodes)) {
      throw new IllegalStateException("instances " + instances + " and Nodes " + nodes + " differ");
    }
    out.println("   every live instance has a Node and every Node an instance: nothing was launched twice");
  }

  /** Every offering out of capacity, then given back: the NodePool says both. */
  void playCapacityLoss(PrintStream out) {
    var cloud = cloud();
    cloud.markUnavailable(o -> true, "InsufficientInstanceCapacity");
    out.println("== every offering out of capacity (as launches that found none would leave them)");
    var lost = Await.until("NodePool " + DriftScenario.NODE_POOL + " to say it is out of capacity", timeout,
        () -> condition("False"), () -> "");
    out.printf("   NodePool %s: CapacityAvailable=False %s: %s%n", DriftScenario.NODE_POOL, lost.get("reason"), lost.get("message"));
    cloud.setOfferingsAvailable(o -> true, true);
    var back = Await.until("NodePool " + DriftScenario.NODE_POOL + " to say capacity is back", timeout, () -> condition("True"), () -> "");
    out.printf("== capacity given back: CapacityAvailable=True (%s)%n", back.get("message"));
    for (var event : env.kube().v1().events().inAnyNamespace().list().getItems()) {
      if (DriftScenario.NODE_POOL.equals(event.getInvolvedObject().getName())
          && List.of("InsufficientCapacity", "CapacityAvailable").contains(event.getReason())) {
        out.printf("     Event %s %s: %s%n", event.getType(), event.getReason(), event.getMessage());
      }
    }
  }

  private Map<String, Object> condition(String status) {
    Map<String, Object> condition = NodePoolConditions.find(env.kube(), DriftScenario.NODE_POOL, "CapacityAvailable");
    return condition != null && status.equals(condition.get("status")) ? condition : null;
  }
}

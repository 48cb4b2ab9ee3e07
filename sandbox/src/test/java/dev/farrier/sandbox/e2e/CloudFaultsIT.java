package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.simulated.CloudCall;
import dev.farrier.activities.cloud.simulated.CloudCallLog;
import dev.farrier.activities.cloud.simulated.InjectedFault;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.sandbox.SandboxEnvironment;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The retry and back-off paths end to end: with the cloud throttling launches, failing the catalogue with server errors
 * and answering it slowly, the blueprint's pods still get their node once the faults end, and no instance
 * is launched twice (every live instance has a Node and every Node an instance).
 */
class CloudFaultsIT {
  @Test
  void throttledFailingAndSlowCloudCallsAreRetriedUntilThePodsGetANodeAndNothingIsLaunchedTwice() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("cloud-faults"), "e2e-faults", 0)) {
      env.startWorker();
      var cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(env.cloudDir()).withCluster(env.cluster()));
      cloud.injectFault(SimulatedCloud.RUN_INSTANCES, InjectedFault.Kind.THROTTLING, Duration.ofSeconds(20), Duration.ZERO);
      cloud.injectFault(SimulatedCloud.DESCRIBE_INSTANCE_TYPES, InjectedFault.Kind.SERVER_ERROR, Duration.ofSeconds(10), Duration.ZERO);
      cloud.injectFault(SimulatedCloud.DESCRIBE_INSTANCE_TYPES, InjectedFault.Kind.SLOW, Duration.ofSeconds(30), Duration.ofSeconds(1));

      var old = E2e.scenario(env).provision("1.34");

      List<String> faults = new CloudCallLog(env.cloudDir()).read().stream().filter(c -> c.operation() == CloudCall.Operation.FAULT)
          .map(CloudCall::detail).distinct().toList();
      assertTrue(faults.containsAll(List.of("THROTTLING RunInstances", "SERVER_ERROR DescribeInstanceTypes",
          "SLOW DescribeInstanceTypes +1000ms")),
          "the launch met the faults before it succeeded: " + faults);
      assertTrue(old.node() != null);
      E2e.assertInstancesMatchNodes(env);
    }
  }
}

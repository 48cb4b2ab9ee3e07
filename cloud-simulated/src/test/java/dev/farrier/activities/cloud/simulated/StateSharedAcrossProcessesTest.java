package dev.farrier.activities.cloud.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.simulated.CloudCall.Operation;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file lock and atomic writes hold across processes, including one killed with SIGKILL mid-write. */
class StateSharedAcrossProcessesTest {
  @TempDir
  Path stateDir;

  private Process launchLoop(String prefix, int count) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), LaunchLoop.class.getName(),
        stateDir.toString(), prefix, Integer.toString(count))
        .redirectErrorStream(true)
        .redirectOutput(stateDir.resolve(prefix + ".out").toFile())
        .start();
  }

  @Test
  void concurrentProcessesLoseNoLaunchAndAKilledOneLeavesAWholeFile() throws Exception {
    Process a = launchLoop("a", 25);
    Process killed = launchLoop("k", 0);
    SimulatedCloud cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(stateDir));
    for (int n = 0; n < 25; n++) {
      cloud.create(LaunchLoop.request(cloud, "t-" + n));
    }
    assertTrue(a.waitFor(60, TimeUnit.SECONDS), "the other launcher finished");
    assertEquals(0, a.exitValue());
    killed.destroyForcibly().waitFor(30, TimeUnit.SECONDS); // SIGKILL, wherever it is

    List<Instance> instances = new SimulatedCloud(SimulatedCloudConfig.defaults(stateDir)).list("sandbox");
    Set<String> claims = new HashSet<>();
    Set<String> dnsNames = new HashSet<>();
    for (Instance instance : instances) {
      claims.add(instance.tags().get("karpenter.sh/nodeclaim"));
      dnsNames.add(instance.privateDnsName());
    }
    assertEquals(instances.size(), claims.size(), "one instance per claim");
    assertEquals(instances.size(), dnsNames.size(), "private DNS names are unique");
    for (int n = 0; n < 25; n++) {
      assertTrue(claims.contains("a-" + n) && claims.contains("t-" + n), "lost launch " + n);
    }
    long logged = new CloudCallLog(stateDir).read(Operation.CREATE).size();
    // The state is written before the log line, so a kill in between can lose at most one line, never add one.
    assertTrue(logged == instances.size() || logged == instances.size() - 1, logged + " logged, " + instances.size() + " launched");
  }
}

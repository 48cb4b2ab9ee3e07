package dev.farrier.activities;

import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.activities.disruption.ReplacementTracker;
import dev.farrier.activities.kube.Cluster;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.activities.launch.NodeClaimActivitiesImpl;
import dev.farrier.activities.planning.PlanningActivitiesImpl;
import dev.farrier.activities.status.StatusRefresher;
import dev.farrier.workflows.activities.AwaitNodeRequest;
import dev.farrier.workflows.activities.NodeClaimActivities;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.workflows.activities.PlanningActivities;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.testing.TestActivityEnvironment;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The real activity implementations on a simulated cloud against the shared kube-apiserver: a new EC2NodeClass (the
 * Kubernetes 1.34 AL2 image) and NodePool, resolved by the status loop as the worker's would, and activity stubs that
 * try once, so a test sees each failure as it is raised.
 */
final class SimulatedActivities implements AutoCloseable {
  /** The simulated VPC is tagged karpenter.sh/discovery=<cluster>; KubeTestSupport's EC2NodeClass selects "test". */
  static final String CLUSTER = "test";

  final SimulatedCloud cloud;
  final NodeClaimActivities claims;
  final PlanningActivities planning;
  private final PlanningActivitiesImpl planningImpl;
  final String nodeClass = KubeTestSupport.unique("class");
  final String nodePool = KubeTestSupport.unique("pool");
  final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final TestActivityEnvironment env = TestActivityEnvironment.newInstance();

  SimulatedActivities(KubernetesClient client, Cluster cluster, Path cloudDir) {
    cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(cloudDir).withCluster(CLUSTER)
        .withDelays(Duration.ofMillis(500), Duration.ofMillis(500)));
    planningImpl = new PlanningActivitiesImpl(cluster, cloud, ReplacementTracker.TAINT_MEANS_RUNNING, meters);
    env.registerActivitiesImplementations(new NodeClaimActivitiesImpl(cluster, cloud, meters), planningImpl);
    var options = ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofMinutes(2))
        .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(1).build()).build();
    claims = env.newActivityStub(NodeClaimActivities.class, options);
    planning = env.newActivityStub(PlanningActivities.class, options);
    var ami = cloud.ssmParameter("/aws/service/eks/optimized-ami/1.34/amazon-linux-2/recommended/image_id").orElseThrow();
    KubeTestSupport.apply(client, KubeTestSupport.nodeClassYaml(nodeClass, ami));
    KubeTestSupport.apply(client, KubeTestSupport.nodePoolYaml(nodePool, nodeClass));
    // Launches take subnets, security groups and the instance profile from the status the worker's loop writes.
    new StatusRefresher(cluster, cloud, CLUSTER, Clock.systemUTC()).refresh();
  }

  /**
   * A claim {@code name} of the test's NodePool, with NodePool hash {@code hash} (null: none), launched, registered
   * and initialized (a simulated kubelet must be running); returns its node's name.
   */
  String initializedNode(String name, String hash) {
    claims.createNodeClaim(new NodeClaimRequest(name, nodePool, nodeClass, List.of("m5.large"),
        List.of(Requirement.in(WellKnown.INSTANCE_TYPE_LABEL, List.of("m5.large")), Requirement.in(WellKnown.ARCH_LABEL, List.of("amd64"))),
        Resources.of(1000, 1L << 30, 1), Map.of(), List.of(), List.of(), hash, "720h", null, List.of()));
    var launched = claims.launchInstance(new NodeClaimRef(CLUSTER, name));
    var node = claims.awaitRegistered(new AwaitNodeRequest(CLUSTER, name, launched.providerId(), null));
    var registered = new AwaitNodeRequest(CLUSTER, name, launched.providerId(), node);
    claims.registerNode(registered);
    claims.awaitInitialized(registered);
    return node;
  }

  /** Waits until the conditions the planning rounds so far handed to their writer are written. */
  void conditionsWritten() {
    try {
      planningImpl.awaitConditionWrites();
    } catch (Exception e) {
      throw new IllegalStateException("the planning rounds' conditions were not written", e);
    }
  }

  @Override
  public void close() {
    env.close();
  }
}

package dev.farrier.sandbox.chaos;

import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedInstance;
import dev.farrier.sandbox.chaos.Observation.Claim;
import dev.farrier.sandbox.chaos.Observation.CloudInstance;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.upgrade.NodePoolUpgradeWorkflow;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.temporal.client.WorkflowClient;
import java.time.Clock;
import java.util.List;

/**
 * Reads one {@link Observation} from outside the worker: the simulated cloud's instances from its state directory, the
 * NodeClaims and pending pods from the API server (as untyped resources, not through Farrier's CRD model), and the
 * replacements and rollouts Temporal's visibility lists as running for the cluster.
 */
public final class ObservationCollector {
  /** The workflow types whose running executions mean the fleet has not settled. */
  static final List<String> UNSETTLED_TYPES = List.of(NodeReplacementWorkflow.class.getSimpleName(),
      NodePoolUpgradeWorkflow.class.getSimpleName());

  private final KubernetesClient kube;
  private final SimulatedCloud cloud;
  private final WorkflowClient temporal;
  private final String cluster;
  private final Clock clock;

  public ObservationCollector(KubernetesClient kube, SimulatedCloud cloud, WorkflowClient temporal, String cluster, Clock clock) {
    this.kube = kube;
    this.cloud = cloud;
    this.temporal = temporal;
    this.cluster = cluster;
    this.clock = clock;
  }

  public Observation collect() {
    var at = clock.instant();
    List<CloudInstance> instances = cloud.instances().stream().map(SimulatedInstance::instance)
        .map(ObservationCollector::instance).toList();
    List<Claim> claims = kube.genericKubernetesResources("karpenter.sh/v1", "NodeClaim").list().getItems().stream()
        .map(ObservationCollector::claim).toList();
    List<String> pending = kube.pods().inAnyNamespace().withField("status.phase", "Pending").list().getItems().stream()
        .map(p -> p.getMetadata().getNamespace() + "/" + p.getMetadata().getName()).sorted().toList();
    List<String> running = temporal.listExecutions(FarrierSearchAttributes.runningOfCluster(cluster, UNSETTLED_TYPES)).map(e -> e.getExecution().getWorkflowId()).sorted().toList();
    return new Observation(at, instances, claims, pending, running);
  }

  private static CloudInstance instance(Instance i) {
    return new CloudInstance(i.id(), i.state(), i.tags());
  }

  private static Claim claim(GenericKubernetesResource r) {
    return new Claim(r.getMetadata().getName(), r.getMetadata().getDeletionTimestamp() != null);
  }
}

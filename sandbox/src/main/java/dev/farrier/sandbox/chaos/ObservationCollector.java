package dev.farrier.sandbox.chaos;

import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedInstance;
import dev.farrier.sandbox.chaos.Observation.Claim;
import dev.farrier.sandbox.chaos.Observation.CloudInstance;
import dev.farrier.sandbox.chaos.Observation.Pdb;
import dev.farrier.sandbox.chaos.Observation.Replacement;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.upgrade.NodePoolUpgradeWorkflow;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionMetadata;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Reads {@link Observation}s from outside the worker: the simulated cloud's instances from its state directory, the
 * NodeClaims and PodDisruptionBudgets from the API server (as untyped resources, not through Farrier's CRD model), the
 * pods and every change of them from a watch ({@link PodWatch}, started by {@link #start}: pods leave faster than
 * one observation a second), the replacements and rollouts Temporal's visibility lists as running for the cluster,
 * and every {@link #COMPLETED_QUERY_EVERY} the replacements that completed since the previous such query.
 */
public final class ObservationCollector implements AutoCloseable {
  /** The workflow types whose running executions mean the fleet has not settled. */
  static final List<String> UNSETTLED_TYPES = List.of(NodeReplacementWorkflow.class.getSimpleName(),
      NodePoolUpgradeWorkflow.class.getSimpleName());
  /** How often completed replacements are listed: a closed-executions query costs more than a second's budget. */
  static final Duration COMPLETED_QUERY_EVERY = Duration.ofSeconds(30);
  /** How far back each completed query reaches before the previous one, so a late visibility write is not missed. */
  static final Duration COMPLETED_QUERY_OVERLAP = Duration.ofSeconds(60);

  private final KubernetesClient kube;
  private final SimulatedCloud cloud;
  private final WorkflowClient temporal;
  private final String cluster;
  private final Clock clock;
  private PodWatch pods;
  private Instant lastCompletedQuery;

  public ObservationCollector(KubernetesClient kube, SimulatedCloud cloud, WorkflowClient temporal, String cluster, Clock clock) {
    this.kube = kube;
    this.cloud = cloud;
    this.temporal = temporal;
    this.cluster = cluster;
    this.clock = clock;
  }

  /** Starts the pod watch; once its first list is in, {@link #collect} may be called. */
  public void start() {
    if (pods != null) {
      throw new IllegalStateException("already started");
    }
    SharedIndexInformer<io.fabric8.kubernetes.api.model.Pod> informer = kube.pods().inAnyNamespace().runnableInformer(0);
    pods = new PodWatch(informer);
    informer.addEventHandler(pods);
    informer.run();
  }

  /** One observation; the pod changes in it are those since the previous call. Needs {@link #start}. */
  public Observation collect() {
    if (pods == null) {
      throw new IllegalStateException("start() the collector before collect(): the pod watch is not running");
    }
    var at = clock.instant();
    List<CloudInstance> instances = cloud.instances().stream().map(SimulatedInstance::instance)
        .map(ObservationCollector::instance).toList();
    List<Claim> claims = kube.genericKubernetesResources("karpenter.sh/v1", "NodeClaim").list().getItems().stream()
        .map(ObservationCollector::claim).toList();
    List<WorkflowExecutionMetadata> running = temporal.listExecutions(FarrierSearchAttributes.runningOfCluster(cluster, UNSETTLED_TYPES)).toList();
    List<String> runningIds = running.stream().map(e -> e.getExecution().getWorkflowId()).sorted().toList();
    List<Replacement> replacements = running.stream()
        .filter(e -> e.getWorkflowType().equals(NodeReplacementWorkflow.class.getSimpleName()))
        .map(ObservationCollector::replacement).toList();
    List<Pdb> pdbs = kube.policy().v1().podDisruptionBudget().inAnyNamespace().list().getItems().stream()
        .map(ObservationCollector::pdb).toList();
    List<Replacement> completed = completedReplacements(at);
    // Last, once every call above answered: when one fails (the API server or Temporal down), the pod changes stay in
    // the watch for the next observation instead of being lost with this one.
    var podsNow = pods.drain();
    List<String> pending = podsNow.pods().stream().filter(p -> "Pending".equals(p.phase())).map(Observation.PodState::key).sorted().toList();
    return new Observation(at, instances, claims, pending, runningIds, podsNow.pods(), podsNow.changes(), pdbs,
        replacements, completed);
  }

  @Override
  public void close() {
    if (pods != null) {
      pods.close();
    }
  }

  /**
   * The replacements of the cluster that completed with phase Done (an aborted, invalidated or failed one did not
   * replace its node), closed since shortly before the previous query; none between queries.
   */
  private List<Replacement> completedReplacements(Instant at) {
    if (lastCompletedQuery != null && Duration.between(lastCompletedQuery, at).compareTo(COMPLETED_QUERY_EVERY) < 0) {
      return List.of();
    }
    String query = "ExecutionStatus = 'Completed' AND " + FarrierSearchAttributes.CLUSTER.getName() + " = '" + cluster
        + "' AND WorkflowType = '" + NodeReplacementWorkflow.class.getSimpleName() + "' AND "
        + FarrierSearchAttributes.PHASE.getName() + " = 'Done'"
        + (lastCompletedQuery == null ? "" : " AND CloseTime > '" + lastCompletedQuery.minus(COMPLETED_QUERY_OVERLAP) + "'");
    List<Replacement> completed = temporal.listExecutions(query).map(ObservationCollector::replacement).toList();
    lastCompletedQuery = at; // only once listed: a failed query is asked again at the next observation
    return completed;
  }

  private static Replacement replacement(WorkflowExecutionMetadata e) {
    WorkflowExecution execution = e.getExecution();
    var attributes = e.getTypedSearchAttributes();
    return new Replacement(execution.getWorkflowId(), execution.getRunId(), attributes.get(FarrierSearchAttributes.NODE_CLAIM),
        attributes.get(FarrierSearchAttributes.NODE), attributes.get(FarrierSearchAttributes.NODE_POOL),
        attributes.get(FarrierSearchAttributes.REASON));
  }

  private static CloudInstance instance(Instance i) {
    return new CloudInstance(i.id(), i.state(), i.tags());
  }

  @SuppressWarnings("unchecked")
  private static Claim claim(GenericKubernetesResource r) {
    Map<String, Object> status = (Map<String, Object>) r.getAdditionalProperties().getOrDefault("status", Map.of());
    List<Map<String, Object>> conditions = (List<Map<String, Object>>) status.getOrDefault("conditions", List.of());
    boolean registered = conditions.stream().anyMatch(c -> "Registered".equals(c.get("type")) && "True".equals(c.get("status")));
    Map<String, String> labels = Objects.requireNonNullElse(r.getMetadata().getLabels(), Map.of());
    return new Claim(r.getMetadata().getName(), r.getMetadata().getDeletionTimestamp() != null,
        labels.get(dev.farrier.model.WellKnown.NODEPOOL_LABEL), (String) status.get("nodeName"), (String) status.get("imageID"), registered);
  }

  /** A PDB with its percentages resolved against its expected pods, rounded up as Kubernetes' disruption controller does. */
  static Pdb pdb(PodDisruptionBudget pdb) {
    var meta = pdb.getMetadata();
    var selector = pdb.getSpec().getSelector();
    if (selector != null && selector.getMatchExpressions() != null && !selector.getMatchExpressions().isEmpty()) {
      throw new IllegalStateException("PodDisruptionBudget " + meta.getNamespace() + "/" + meta.getName()
          + " selects with matchExpressions, which the chaos monitor does not read: select with matchLabels only");
    }
    int expected = pdb.getStatus() == null || pdb.getStatus().getExpectedPods() == null ? 0 : pdb.getStatus().getExpectedPods();
    Map<String, String> matchLabels = selector == null || selector.getMatchLabels() == null ? Map.of() : selector.getMatchLabels();
    return new Pdb(meta.getNamespace(), meta.getName(), matchLabels, resolve(pdb.getSpec().getMinAvailable(), expected),
        resolve(pdb.getSpec().getMaxUnavailable(), expected), expected);
  }

  static Integer resolve(IntOrString value, int expected) {
    if (value == null) {
      return null;
    }
    if (value.getIntVal() != null) {
      return value.getIntVal();
    }
    String text = value.getStrVal();
    if (!text.endsWith("%")) {
      return Integer.valueOf(text);
    }
    int percent = Integer.parseInt(text.substring(0, text.length() - 1));
    return (int) Math.ceil(percent * (double) expected / 100);
  }
}

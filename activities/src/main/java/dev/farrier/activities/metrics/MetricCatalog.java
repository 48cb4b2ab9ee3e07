package dev.farrier.activities.metrics;

import static dev.farrier.activities.metrics.MetricDefinition.Stability.ALPHA;
import static dev.farrier.activities.metrics.MetricDefinition.Stability.BETA;
import static dev.farrier.activities.metrics.MetricDefinition.Stability.FARRIER;
import static dev.farrier.activities.metrics.MetricDefinition.Stability.STABLE;
import static dev.farrier.activities.metrics.MetricDefinition.counter;
import static dev.farrier.activities.metrics.MetricDefinition.gauge;
import static dev.farrier.activities.metrics.MetricDefinition.histogram;
import static dev.farrier.activities.metrics.MetricDefinition.summary;

import dev.farrier.activities.metrics.MetricDefinition.Stability;
import java.util.List;

/**
 * Every metric Farrier exports besides the JVM's and the Temporal SDK's: Karpenter's (v1.14.1 reference) under
 * Karpenter's names and label names, so its published dashboards and alerts work unchanged, and Farrier's own under
 * {@code farrier_}. {@link #NOT_EXPORTED} says, for each name of Karpenter's reference Farrier does not export, why.
 * docs/reference/metrics.md is generated from this class.
 */
public final class MetricCatalog {
  private MetricCatalog() {}

  public static final MetricDefinition BUILD_INFO = gauge("karpenter_build_info", STABLE,
      "A metric with a constant '1' value labeled by version from which Farrier was built (goversion is the Java runtime's "
          + "version, goarch the JVM's os.arch; the names are Karpenter's).",
      "version", "goversion", "goarch", "commit");

  public static final MetricDefinition NODECLAIMS_CREATED = counter("karpenter_nodeclaims_created_total", STABLE,
      "Number of nodeclaims created in total by Farrier. Labeled by reason the nodeclaim was created, the owning nodepool, "
          + "and if min values was relaxed for this nodeclaim.",
      "reason", "nodepool", "min_values_relaxed");
  public static final MetricDefinition NODECLAIMS_TERMINATED = counter("karpenter_nodeclaims_terminated_total", STABLE,
      "Number of nodeclaims terminated in total by Farrier. Labeled by the owning nodepool, capacity type, and zone.",
      "nodepool", "capacity_type", "zone");
  public static final MetricDefinition NODECLAIMS_DISRUPTED = counter("karpenter_nodeclaims_disrupted_total", ALPHA,
      "Number of nodeclaims disrupted in total by Farrier. Labeled by reason the nodeclaim was disrupted and the owning nodepool.",
      "reason", "nodepool", "capacity_type");
  public static final MetricDefinition NODES_CREATED = counter("karpenter_nodes_created_total", STABLE,
      "Number of nodes created in total by Farrier (registered to their NodeClaim). Labeled by owning nodepool and zone.",
      "nodepool", "zone");
  public static final MetricDefinition NODES_TERMINATED = counter("karpenter_nodes_terminated_total", STABLE,
      "Number of nodes terminated in total by Farrier. Labeled by owning nodepool and zone.", "nodepool", "zone");

  public static final MetricDefinition NODES_ALLOCATABLE = gauge("karpenter_nodes_allocatable", BETA,
      "Node allocatable are the resources allocatable by nodes.", NodeLabels.names(true));
  public static final MetricDefinition NODES_SYSTEM_OVERHEAD = gauge("karpenter_nodes_system_overhead", BETA,
      "Node system daemon overhead are the resources reserved for system overhead, the difference between the node's capacity "
          + "and allocatable values are reported by the status.", NodeLabels.names(true));
  public static final MetricDefinition NODES_POD_REQUESTS = gauge("karpenter_nodes_total_pod_requests", BETA,
      "Node total pod requests are the resources requested by pods bound to nodes, including the DaemonSet pods.",
      NodeLabels.names(true));
  public static final MetricDefinition NODES_POD_LIMITS = gauge("karpenter_nodes_total_pod_limits", BETA,
      "Node total pod limits are the resources specified by pod limits, including the DaemonSet pods.", NodeLabels.names(true));
  public static final MetricDefinition NODES_DAEMON_REQUESTS = gauge("karpenter_nodes_total_daemon_requests", BETA,
      "Node total daemon requests are the resource requested by DaemonSet pods bound to nodes.", NodeLabels.names(true));
  public static final MetricDefinition NODES_DAEMON_LIMITS = gauge("karpenter_nodes_total_daemon_limits", BETA,
      "Node total daemon limits are the resources specified by DaemonSet pod limits.", NodeLabels.names(true));

  public static final MetricDefinition NODES_CURRENT_LIFETIME = gauge("karpenter_nodes_current_lifetime_seconds", ALPHA,
      "Node age in seconds", NodeLabels.names(false));
  public static final MetricDefinition PODS_STATE = gauge("karpenter_pods_state", BETA,
      "Pod state is the current state of pods. This metric can be used several ways as it is labeled by the pod name, namespace, "
          + "owner, node, nodepool name, zone, architecture, capacity type, instance type, pod phase, and pod readiness.",
      "name", "namespace", "owner", "node", "scheduled", "nodepool", "zone", "arch", "capacity_type", "instance_type", "phase", "ready",
      "managed");
  public static final MetricDefinition PODS_STARTUP_DURATION = summary("karpenter_pods_startup_duration_seconds", STABLE,
      "The time from pod creation until the pod is running.");

  public static final MetricDefinition DISRUPTION_DECISIONS = counter("karpenter_voluntary_disruption_decisions_total", STABLE,
      "Number of disruption decisions performed. Labeled by disruption decision, reason, and consolidation type.",
      "decision", "reason", "consolidation_type");
  public static final MetricDefinition DISRUPTION_ELIGIBLE_NODES = gauge("karpenter_voluntary_disruption_eligible_nodes", BETA,
      "Number of nodes eligible for disruption by Farrier. Labeled by disruption reason.", "reason");

  public static final MetricDefinition CONSOLIDATION_MOVES = counter("karpenter_consolidation_moves_total", ALPHA,
      "Number of balanced consolidation moves. Labeled by decision, NodePool, and policy.", "decision", "nodepool", "policy");
  /** Not a duration: Karpenter's buckets around the threshold 0.5; {@link ConsolidationMetrics} records it. */
  public static final MetricDefinition CONSOLIDATION_SCORE = histogram("karpenter_consolidation_score", ALPHA,
      "Score of balanced consolidation moves. Labeled by decision, NodePool, and policy.",
      List.of(0.1, 0.25, 0.33, 0.5, 1.0, 2.0, 5.0, 10.0), "decision", "nodepool", "policy");

  public static final MetricDefinition SCHEDULING_DURATION = histogram("karpenter_scheduler_scheduling_duration_seconds", STABLE,
      "Duration of scheduling simulations used for deprovisioning and provisioning in seconds.", "controller");

  public static final MetricDefinition NODEPOOLS_USAGE = gauge("karpenter_nodepools_usage", ALPHA,
      "The amount of resources that have been provisioned for a nodepool. Labeled by nodepool name and resource type.",
      "resource_type", "nodepool");
  public static final MetricDefinition NODEPOOLS_LIMIT = gauge("karpenter_nodepools_limit", ALPHA,
      "Limits specified on the nodepool that restrict the quantity of resources provisioned. Labeled by nodepool name and resource type.",
      "resource_type", "nodepool");

  public static final MetricDefinition INTERRUPTION_RECEIVED = counter("karpenter_interruption_received_messages_total", STABLE,
      "Count of messages received from the SQS queue. Broken down by message type and whether the message was actionable.",
      "message_type");
  public static final MetricDefinition INTERRUPTION_DELETED = counter("karpenter_interruption_deleted_messages_total", STABLE,
      "Count of messages deleted from the SQS queue.");
  public static final MetricDefinition INTERRUPTION_QUEUE_DURATION = histogram("karpenter_interruption_message_queue_duration_seconds",
      STABLE, "Amount of time an interruption message is on the queue before it is processed by Farrier.");

  public static final MetricDefinition CLUSTER_STATE_NODE_COUNT = gauge("karpenter_cluster_state_node_count", STABLE,
      "Current count of nodes in cluster state");
  public static final MetricDefinition CLUSTER_STATE_SYNCED = gauge("karpenter_cluster_state_synced", STABLE,
      "Returns 1 if cluster state is synced and 0 otherwise. Synced checks that Farrier's informer cache of nodeclaims, nodes "
          + "and the rest it reads has caught up with the API server");
  public static final MetricDefinition CLUSTER_STATE_UNSYNCED_TIME = gauge("karpenter_cluster_state_unsynced_time_seconds", STABLE,
      "The time for which cluster state is not synced");

  public static final MetricDefinition CLOUDPROVIDER_DURATION = histogram("karpenter_cloudprovider_duration_seconds", BETA,
      "Duration of cloud provider method calls. Labeled by the controller, method name and provider.",
      "controller", "method", "provider");
  public static final MetricDefinition CLOUDPROVIDER_ERRORS = counter("karpenter_cloudprovider_errors_total", BETA,
      "Total number of errors returned from CloudProvider calls.", "controller", "method", "provider", "error");

  public static final MetricDefinition INSTANCE_TYPE_CPU = gauge("karpenter_cloudprovider_instance_type_cpu_cores", BETA,
      "VCPUs cores for a given instance type.", "instance_type");
  public static final MetricDefinition INSTANCE_TYPE_MEMORY = gauge("karpenter_cloudprovider_instance_type_memory_bytes", BETA,
      "Memory, in bytes, for a given instance type.", "instance_type");
  public static final MetricDefinition OFFERING_AVAILABLE = gauge("karpenter_cloudprovider_instance_type_offering_available", BETA,
      "Instance type offering availability, based on instance type, capacity type, and zone", "instance_type", "capacity_type", "zone");
  public static final MetricDefinition OFFERING_PRICE = gauge("karpenter_cloudprovider_instance_type_offering_price_estimate", BETA,
      "Instance type offering estimated hourly price used when making informed decisions on node cost calculation, based on "
          + "instance type, capacity type, and zone.", "instance_type", "capacity_type", "zone");

  public static final MetricDefinition REPLACEMENTS = gauge("farrier_replacements", FARRIER,
      "Replacements (NodeReplacementWorkflow) running now, by the phase they are in, the NodePool and the reason.",
      "phase", "nodepool", "reason");
  public static final MetricDefinition BLOCKED = gauge("farrier_blocked_workflows", FARRIER,
      "Running replacements and rollouts something holds up (a PDB, do-not-disrupt pods, a failed step, an approval: "
          + "the FarrierBlocker search attribute), by workflow type and NodePool.",
      "workflow_type", "nodepool");
  public static final MetricDefinition ROLLOUTS = gauge("farrier_rollouts", FARRIER,
      "Fleet upgrades (NodePoolUpgradeWorkflow) running now, by phase and NodePool.", "phase", "nodepool");
  public static final MetricDefinition INTERRUPTION_DELETE_FAILURES = counter("farrier_interruption_delete_failures_total", FARRIER,
      "Interruption message deletions the queue refused (they come back).");
  public static final MetricDefinition GC_HALTED = counter("farrier_gc_halted_total", FARRIER,
      "Garbage collection passes that deleted nothing because too much looked gone.");
  public static final MetricDefinition GC_INSTANCES_GONE = gauge("farrier_gc_instances_gone", FARRIER,
      "Instances the last garbage collection pass found gone.");

  /** Everything exported, in the reference page's order. */
  public static final List<MetricDefinition> ALL = List.of(BUILD_INFO, NODECLAIMS_CREATED, NODECLAIMS_TERMINATED, NODECLAIMS_DISRUPTED,
      NODES_CREATED, NODES_TERMINATED, NODES_ALLOCATABLE, NODES_SYSTEM_OVERHEAD, NODES_POD_REQUESTS, NODES_POD_LIMITS,
      NODES_DAEMON_REQUESTS, NODES_DAEMON_LIMITS, NODES_CURRENT_LIFETIME, PODS_STATE, PODS_STARTUP_DURATION, DISRUPTION_DECISIONS, DISRUPTION_ELIGIBLE_NODES,
      CONSOLIDATION_MOVES, CONSOLIDATION_SCORE, SCHEDULING_DURATION, NODEPOOLS_USAGE, NODEPOOLS_LIMIT, INTERRUPTION_RECEIVED,
      INTERRUPTION_DELETED, INTERRUPTION_QUEUE_DURATION, CLUSTER_STATE_NODE_COUNT, CLUSTER_STATE_SYNCED, CLUSTER_STATE_UNSYNCED_TIME,
      CLOUDPROVIDER_DURATION, CLOUDPROVIDER_ERRORS, INSTANCE_TYPE_CPU, INSTANCE_TYPE_MEMORY, OFFERING_AVAILABLE, OFFERING_PRICE,
      REPLACEMENTS, BLOCKED, ROLLOUTS, INTERRUPTION_DELETE_FAILURES, GC_HALTED,
      GC_INSTANCES_GONE);

  /** A name of Karpenter's reference Farrier does not export, and why. */
  public record NotExported(String name, Stability stability, String why) {}

  private static final String GO_RUNTIME = "a metric of a Go library Karpenter is built on (controller-runtime, client-go, the AWS SDK for "
      + "Go, leader election); Farrier is a Java worker on Temporal and exports the JVM's metrics (jvm_*) and the Temporal SDK's "
      + "(temporal_*) instead";
  private static final String NOT_YET = "not exported yet: planned, nothing in Farrier computes it today";
  private static final String OPERATOR_PKG = "operatorpkg's per-object status condition and termination metrics; Farrier's conditions "
      + "are on the objects and in Events, its workflows' state in Temporal (farrier_replacements, farrier_blocked_workflows); "
      + NOT_YET;
  private static final String NO_CONSOLIDATION_TIMEOUT = "Farrier's consolidation has no timeout that cuts a round short";

  public static final List<NotExported> NOT_EXPORTED = List.of(
      new NotExported("karpenter_nodeclaims_unhealthy_disrupted_total", ALPHA, NOT_YET),
      new NotExported("karpenter_nodeclaims_termination_duration_seconds", BETA, NOT_YET),
      new NotExported("karpenter_nodeclaims_instance_termination_duration_seconds", BETA, NOT_YET),
      new NotExported("karpenter_nodes_termination_duration_seconds", BETA, NOT_YET),
      new NotExported("karpenter_nodes_lifetime_duration_seconds", ALPHA, NOT_YET),
      new NotExported("karpenter_nodes_drained_total", ALPHA, NOT_YET),
      new NotExported("karpenter_pods_unstarted_time_seconds", ALPHA, NOT_YET),
      new NotExported("karpenter_pods_unbound_time_seconds", ALPHA, NOT_YET),
      new NotExported("karpenter_pods_bound_duration_seconds", ALPHA, NOT_YET),
      new NotExported("karpenter_pods_scheduling_decision_duration_seconds", ALPHA, NOT_YET),
      new NotExported("karpenter_pods_provisioning_*", ALPHA, "measured by Karpenter from a point in its memory (when it first thought "
          + "a pod could schedule); " + NOT_YET),
      new NotExported("karpenter_pods_eviction_requests_total", ALPHA, NOT_YET),
      new NotExported("karpenter_pods_drained_total", ALPHA, NOT_YET),
      new NotExported("operator_nodeclaim_*, operator_node_*, operator_nodepool_*, operator_ec2nodeclass_*", BETA, OPERATOR_PKG),
      new NotExported("operator_termination_*, operator_status_condition_*", Stability.BETA, "deprecated upstream; " + OPERATOR_PKG),
      new NotExported("karpenter_voluntary_disruption_queue_failures_total", BETA, NOT_YET),
      new NotExported("karpenter_voluntary_disruption_failed_validations_total", ALPHA, NOT_YET),
      new NotExported("karpenter_voluntary_disruption_decisions_by_nodepool_total", ALPHA, NOT_YET),
      new NotExported("karpenter_voluntary_disruption_consolidation_timeouts_total", BETA, NO_CONSOLIDATION_TIMEOUT),
      new NotExported("karpenter_voluntary_disruption_decision_evaluation_duration_seconds", BETA, "Farrier evaluates every method "
          + "(drift, expiry, repair, emptiness, consolidation) in one planning round, so there is no per-method duration; the "
          + "round's is karpenter_scheduler_scheduling_duration_seconds{controller=\"disruption\"}"),
      new NotExported("karpenter_scheduler_queue_depth", BETA, "Farrier's provisioning plans a batch in one activity call, no queue of "
          + "pods a scrape could see part way"),
      new NotExported("karpenter_scheduler_unfinished_work_seconds", ALPHA, NOT_YET),
      new NotExported("karpenter_scheduler_unschedulable_pods_count", ALPHA, NOT_YET),
      new NotExported("karpenter_scheduler_pending_pods_by_effective_zone_count", ALPHA, NOT_YET),
      new NotExported("karpenter_scheduler_ignored_pods_count", ALPHA, NOT_YET),
      new NotExported("karpenter_nodepools_nodes_consuming_budgets", ALPHA, NOT_YET),
      new NotExported("karpenter_nodepools_allowed_disruptions", ALPHA, NOT_YET),
      new NotExported("karpenter_nodepools_cost_tracker_errors_total", ALPHA, NOT_YET),
      new NotExported("karpenter_nodepools_cost_total", ALPHA, NOT_YET),
      new NotExported("karpenter_interruption_instance_status_unhealthy_total", STABLE, "Farrier does not poll EC2 "
          + "DescribeInstanceStatus; unhealthy nodes are found by node repair (the Node's conditions)"),
      new NotExported("karpenter_cluster_utilization_percent", ALPHA, NOT_YET),
      new NotExported("karpenter_cloudprovider_instance_termination_failures_total", BETA, NOT_YET),
      new NotExported("karpenter_cloudprovider_instance_launch_failures_total", BETA, NOT_YET),
      new NotExported("karpenter_cloudprovider_batcher_batch_time_seconds", BETA, "Farrier does not batch EC2 calls behind a window"),
      new NotExported("karpenter_cloudprovider_batcher_batch_size", BETA, "Farrier does not batch EC2 calls behind a window"),
      new NotExported("controller_runtime_*", STABLE, GO_RUNTIME),
      new NotExported("workqueue_*", STABLE, GO_RUNTIME),
      new NotExported("client_go_request_*", STABLE, GO_RUNTIME),
      new NotExported("aws_sdk_go_request_*", STABLE, GO_RUNTIME),
      new NotExported("leader_election_*", STABLE, GO_RUNTIME + "; the worker logs when it takes the Lease"));
}

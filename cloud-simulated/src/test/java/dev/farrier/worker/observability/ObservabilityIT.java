package dev.farrier.worker.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.InstanceProfileRequest;
import dev.farrier.activities.cloud.MeteredCloudProvider;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.activities.disruption.ReplacementTracker;
import dev.farrier.activities.drain.NodeActivitiesImpl;
import dev.farrier.activities.interruption.InterruptionCounters;
import dev.farrier.activities.kube.Fabric8Cluster;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.activities.launch.NodeClaimActivitiesImpl;
import dev.farrier.activities.metrics.DisruptionMetrics;
import dev.farrier.activities.planning.PlanningActivitiesImpl;
import dev.farrier.localstack.LocalStack;
import dev.farrier.localstack.LocalStackExtension;
import dev.farrier.workflows.EventReasons;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.workflows.activities.EventRequest;
import dev.farrier.workflows.activities.RecordEventsRequest;
import dev.farrier.workflows.activities.InterruptionKind;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Resources;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.WorkerFactory;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker's metrics and health endpoints on the real local stack (here for the simulated cloud it records from): facts recorded through the activity implementations (the
 * kube-apiserver, the simulated cloud behind {@link MeteredCloudProvider}) and a Temporal worker reporting into the same
 * registry come out of {@code GET /metrics} under their exact Prometheus names; {@code /readyz} answers 200 while
 * Temporal and the API server answer and 503 naming Temporal when its address is a closed port.
 */
@ExtendWith(LocalStackExtension.class)
class ObservabilityIT {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static KubernetesClient kube;

  @WorkflowInterface
  public interface Probe {
    @WorkflowMethod
    String probe();
  }

  public static class ProbeImpl implements Probe {
    @Override
    public String probe() {
      return "ok";
    }
  }

  @BeforeAll
  static void connect(LocalStack stack) throws Exception {
    kube = KubeTestSupport.client(stack);
    KubeTestSupport.installCrds(kube);
  }

  @AfterAll
  static void disconnect() {
    kube.close();
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static NodeClaimRequest claim(String name) {
    return new NodeClaimRequest(name, "metrics-pool", "metrics-class", List.of("m5.large"), List.of(), Resources.ZERO, Map.of(),
        List.of(), List.of(), "hash", null, null, List.of());
  }

  @Test
  void scrapeShowsWhatTheActivitiesAndTheTemporalWorkerRecorded(LocalStack stack, @TempDir Path cloudDir) throws Exception {
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    var stubs = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder().setTarget(stack.temporalAddress())
        .setMetricsScope(TemporalMetrics.scope(registry, Duration.ofMillis(200))).build());
    var workers = WorkerFactory.newInstance(WorkflowClient.newInstance(stubs));
    try (var server = new MetricsServer(registry, List.of(), 0); var cluster = new Fabric8Cluster(kube)) {
      server.start();
      var cloud = new MeteredCloudProvider(new SimulatedCloud(SimulatedCloudConfig.defaults(cloudDir).withCluster("metrics-it")),
          registry, "nodeclaim", "simulated");
      var claims = new NodeClaimActivitiesImpl(cluster, cloud, registry);
      var nodes = new NodeActivitiesImpl(cluster, registry);
      String provisioned = "metrics-" + UUID.randomUUID().toString().substring(0, 8);
      String replacement = provisioned + "-r";

      claims.createNodeClaim(claim(provisioned));
      claims.createNodeClaim(claim(provisioned));
      claims.createNodeClaim(claim(replacement).replacing("drifted"));
      nodes.recordEvents(new RecordEventsRequest(List.of(new EventRequest("metrics-it", EventReasons.KIND_NODE_CLAIM, provisioned,
          EventReasons.NORMAL, EventReasons.DISRUPTION_STARTED,
          EventReasons.disruptionStarted(DisruptionMethod.REPLACE, "SpotInterruption", "notice")))));
      claims.deleteNodeClaim(new NodeClaimRef("metrics-it", provisioned));
      claims.deleteNodeClaim(new NodeClaimRef("metrics-it", provisioned));
      cloud.instanceTypes();
      assertThrows(CloudProviderException.class,
          () -> cloud.resolveInstanceProfile(new InstanceProfileRequest("metrics-it", "metrics-class", null, null)));
      new PlanningActivitiesImpl(cluster, cloud, ReplacementTracker.TAINT_MEANS_RUNNING, registry)
          .planDisruption(new PlanDisruptionRequest("metrics-it", null, null));
      new DisruptionMetrics(registry).decided(List.of(new DisruptionCommand("c", "n", "metrics-pool", "i-1", DisruptionMethod.REPLACE,
          "drifted", "image changed", 1, null)));
      var interruptions = new InterruptionCounters(registry);
      interruptions.notice(InterruptionKind.SpotInterruption, java.time.Instant.now().minusSeconds(3));
      interruptions.deleted(1, 0);

      workers.newWorker("metrics-it").registerWorkflowImplementationTypes(ProbeImpl.class);
      workers.start();
      var probe = WorkflowClient.newInstance(stubs).newWorkflowStub(Probe.class,
          WorkflowOptions.newBuilder().setTaskQueue("metrics-it").setWorkflowId("metrics-it-" + provisioned).build());
      assertEquals("ok", probe.probe());

      var response = get(server.port(), "/metrics");
      for (int i = 0; i < 100 && !response.body().contains("temporal_workflow_completed_total"); i++) {
        Thread.sleep(100); // the SDK reports every 200 ms; the bound only stops a hung test
        response = get(server.port(), "/metrics");
      }
      String body = response.body();
      assertEquals(200, response.statusCode());
      assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
      for (String line : List.of(
          "karpenter_nodeclaims_created_total{min_values_relaxed=\"false\",nodepool=\"metrics-pool\",reason=\"provisioned\"} 1.0",
          "karpenter_nodeclaims_created_total{min_values_relaxed=\"false\",nodepool=\"metrics-pool\",reason=\"drifted\"} 1.0",
          "karpenter_nodeclaims_terminated_total{capacity_type=\"\",nodepool=\"metrics-pool\",zone=\"\"} 1.0",
          "karpenter_nodeclaims_disrupted_total{capacity_type=\"\",nodepool=\"metrics-pool\",reason=\"spot_interruption\"} 1.0",
          "karpenter_voluntary_disruption_decisions_total{consolidation_type=\"\",decision=\"replace\",reason=\"drifted\"} 1.0",
          "karpenter_voluntary_disruption_eligible_nodes{reason=\"drifted\"} 0.0",
          "karpenter_interruption_received_messages_total{message_type=\"spot_interrupted\"} 1.0",
          "karpenter_interruption_received_messages_total{message_type=\"malformed\"} 0.0",
          "karpenter_interruption_deleted_messages_total 1.0",
          "karpenter_interruption_message_queue_duration_seconds_count 1",
          "karpenter_cloudprovider_errors_total{controller=\"nodeclaim\",error=\"InvalidRequestError\",method=\"ResolveInstanceProfile\",provider=\"simulated\"} 1.0",
          "karpenter_cloudprovider_duration_seconds_count{controller=\"nodeclaim\",method=\"GetInstanceTypes\",provider=\"simulated\"} ")) {
        assertTrue(body.contains(line), "exported: " + line);
      }
      assertTrue(body.contains("karpenter_cloudprovider_duration_seconds_bucket{controller=\"nodeclaim\",method=\"GetInstanceTypes\","
          + "provider=\"simulated\",le=\"0.005\"}"), "a histogram with Karpenter's buckets");
      assertTrue(body.contains("temporal_workflow_completed_total{"), "the Temporal SDK's worker metrics");
      assertTrue(body.contains("temporal_request_total{"), "the Temporal SDK's client metrics");
    } finally {
      workers.shutdownNow();
      stubs.shutdownNow();
    }
  }

  @Test
  void readyWhileTemporalAndTheApiServerAnswerElseNamesWhatIsDown(LocalStack stack) throws Exception {
    int closedPort;
    try (var socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    var up = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder().setTarget(stack.temporalAddress()).build());
    var down = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:" + closedPort).build());
    try (var kubernetes = new KubernetesCheck(kube);
        var ready = new Readiness(List.of(new TemporalCheck(up), kubernetes));
        var notReady = new Readiness(List.of(new TemporalCheck(down), kubernetes));
        var healthy = new HealthServer(ready, 0);
        var unhealthy = new HealthServer(notReady, 0)) {
      healthy.start();
      unhealthy.start();
      ready.refresh();
      notReady.refresh();

      var readyz = get(healthy.port(), "/readyz");
      assertEquals(200, readyz.statusCode(), readyz.body());
      assertEquals("ok\n", readyz.body());
      var notReadyz = get(unhealthy.port(), "/readyz");
      assertEquals(503, notReadyz.statusCode());
      assertTrue(notReadyz.body().startsWith("temporal is down: "), notReadyz.body());
      assertTrue(!notReadyz.body().contains("kubernetes"), "the API server answers: " + notReadyz.body());
      assertEquals(200, get(unhealthy.port(), "/healthz").statusCode(), "liveness does not depend on Temporal");
    } finally {
      up.shutdownNow();
      down.shutdownNow();
    }
  }
}

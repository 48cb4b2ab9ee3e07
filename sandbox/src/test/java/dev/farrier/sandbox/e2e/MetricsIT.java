package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.metrics.MetricCatalog;
import dev.farrier.activities.metrics.MetricDefinition;
import dev.farrier.activities.views.ProviderIds;
import dev.farrier.sandbox.DriftScenario;
import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.sandbox.WorkerProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Karpenter's metric names on a running worker: after a provisioning, a drift replacement and a spot interruption of
 * the replacement, {@code GET /metrics} has every metric of {@link MetricCatalog} under its name and type, each sample
 * with exactly its definition's label names, and the counters of what happened moved. Also the Farrier gauge of a
 * running replacement while the interruption's one runs.
 */
class MetricsIT {
  /** Exported only once something is in that state, which this run does not bring about. */
  private static final Set<String> ONLY_WHEN_IT_HAPPENS = Set.of(
      MetricCatalog.CLOUDPROVIDER_ERRORS.name(), // no cloud call fails
      MetricCatalog.BLOCKED.name(), // nothing holds a replacement up
      MetricCatalog.ROLLOUTS.name(), // no fleet upgrade runs
      MetricCatalog.NODES_POD_LIMITS.name(), // the app's pods set no limits
      MetricCatalog.NODES_DAEMON_REQUESTS.name(), // and no DaemonSet runs
      MetricCatalog.NODES_DAEMON_LIMITS.name(),
      // no consolidation move is weighed here (ConsolidationReplacementIT and ConsolidationMetricsScrapeTest record them)
      MetricCatalog.CONSOLIDATION_MOVES.name(), MetricCatalog.CONSOLIDATION_SCORE.name());
  private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([^}]*)})? (\\S+)$", Pattern.MULTILINE);

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  void karpentersNamesAfterAProvisioningADriftAndAnInterruption() throws Exception {
    var runDir = E2e.runDir("metrics");
    try (var env = SandboxEnvironment.start(runDir, "e2e-metrics", 0)) {
      var worker = env.startWorker();
      var scenario = E2e.scenario(env);
      var old = scenario.provision("1.34", manifest -> manifest.replace("values: [\"spot\", \"on-demand\"]", "values: [\"spot\"]"));
      var up = scenario.upgrade(old, "1.35");
      assertEquals("Done", up.result().outcome());

      String instanceId = ProviderIds.instanceId(env.kube().nodes().withName(up.newNode()).get().getSpec().getProviderID());
      var replaced = new DriftScenario.Provisioned(up.newNodeClaim(), up.newNode(), instanceId, up.newImageId(), up.doneAt());
      env.interruptions().interrupt(instanceId);
      String workflowId = scenario.awaitReplacementStarted(replaced);
      E2e.await("farrier_replacements to show the running replacement", E2e.TIMEOUT,
          () -> sum(scrape(worker), MetricCatalog.REPLACEMENTS.name(), "reason=\"SpotInterruption\"") >= 1);
      assertEquals("Done", scenario.awaitResult(workflowId).outcome());
      E2e.await("the interruption message deleted", Duration.ofSeconds(60),
          () -> sum(scrape(worker), MetricCatalog.INTERRUPTION_DELETED.name(), "") >= 1);

      String body = scrape(worker);
      Files.writeString(runDir.resolve("metrics.txt"), body); // what the assertions saw, for a failure's diagnosis
      List<String> problems = new ArrayList<>();
      for (MetricDefinition m : MetricCatalog.ALL) {
        if (!body.contains("# TYPE " + m.name() + " " + m.type().name().toLowerCase(Locale.ROOT) + "\n")) {
          if (!ONLY_WHEN_IT_HAPPENS.contains(m.name()) && !m.name().equals(MetricCatalog.REPLACEMENTS.name())) {
            problems.add(m.name() + " is not exported as a " + m.type());
          }
          continue;
        }
        Set<String> expected = new TreeSet<>(m.labels());
        if (m.type() == MetricDefinition.Type.HISTOGRAM) {
          expected.add("le");
        } else if (m.type() == MetricDefinition.Type.SUMMARY) {
          expected.add("quantile");
        }
        Matcher sample = SAMPLE.matcher(body);
        while (sample.find()) {
          String series = sample.group(1);
          if (!series.equals(m.name()) && !series.equals(m.name() + "_bucket")) {
            continue;
          }
          Set<String> labels = labelNames(sample.group(3));
          if (!labels.equals(expected)) {
            problems.add(sample.group() + ": labels " + labels + ", expected " + expected);
          }
        }
      }
      assertEquals(List.of(), problems, body);

      // The counters of what happened moved.
      assertTrue(sum(body, "karpenter_nodeclaims_created_total", "reason=\"provisioned\"") >= 1, "provisioned");
      assertTrue(sum(body, "karpenter_nodeclaims_created_total", "reason=\"drifted\"") >= 1, "drift replacement");
      assertTrue(sum(body, "karpenter_nodeclaims_disrupted_total", "reason=\"drifted\"") >= 1, "drift disruption");
      assertTrue(sum(body, "karpenter_nodeclaims_disrupted_total", "reason=\"spot_interruption\"") >= 1, "interruption disruption");
      assertTrue(sum(body, "karpenter_voluntary_disruption_decisions_total", "reason=\"drifted\"") >= 1, "drift decided");
      assertTrue(sum(body, "karpenter_nodeclaims_terminated_total", "") >= 2, "the drifted and the interrupted claims");
      assertTrue(sum(body, "karpenter_nodes_created_total", "") >= 3, "three nodes registered");
      assertTrue(sum(body, "karpenter_nodes_terminated_total", "") >= 2, "two nodes gone");
      assertTrue(sum(body, "karpenter_interruption_received_messages_total", "message_type=\"spot_interrupted\"") >= 1, "the notice");
      assertTrue(sum(body, "karpenter_interruption_message_queue_duration_seconds_count", "") >= 1, "its time on the queue");
      assertTrue(sum(body, "karpenter_scheduler_scheduling_duration_seconds_count", "controller=\"provisioner\"") >= 1, "provisioning rounds");
      assertTrue(sum(body, "karpenter_scheduler_scheduling_duration_seconds_count", "controller=\"disruption\"") >= 1, "disruption rounds");
      assertTrue(sum(body, "karpenter_pods_startup_duration_seconds_count", "") >= DriftScenario.REPLICAS, "the app's pods started");
      assertTrue(sum(body, "karpenter_cloudprovider_duration_seconds_count", "method=\"Create\"") >= 3, "three launches");
      assertEquals(1.0, sum(body, "karpenter_cluster_state_synced", ""));
      assertEquals(0.0, sum(body, "karpenter_cluster_state_unsynced_time_seconds", ""));
      assertTrue(sum(body, "karpenter_cluster_state_node_count", "") >= 1, "the nodes in the cache");
      assertTrue(sum(body, "karpenter_nodepools_usage", "resource_type=\"cpu\"") > 0, "the NodePool's cpu in use");
      assertTrue(sum(body, "karpenter_nodepools_limit", "resource_type=\"cpu\"") > 0, "the NodePool's cpu limit");
      assertEquals(1.0, sum(body, "karpenter_build_info", ""));
      assertTrue(!body.contains("version=\"unspecified\""), "the worker's version on karpenter_build_info");
      assertTrue(sum(body, "karpenter_cloudprovider_instance_type_cpu_cores", "instance_type=\"m5.large\"") == 2, "m5.large's vCPUs");
      assertTrue(sum(body, "karpenter_cloudprovider_instance_type_offering_price_estimate", "instance_type=\"m5.large\"") > 0,
          "m5.large's prices");
      assertTrue(sum(body, "karpenter_pods_state", "ready=\"true\"") >= DriftScenario.REPLICAS, "the app's pods, Ready");
      assertTrue(sum(body, "karpenter_nodes_allocatable", "resource_type=\"cpu\"") > 0, "the nodes' allocatable cpu");
      assertTrue(sum(body, "karpenter_nodes_system_overhead", "resource_type=\"memory\"") >= 0, "the nodes' overhead");
      assertTrue(sum(body, "karpenter_nodes_total_pod_requests", "resource_type=\"cpu\"") >= DriftScenario.REPLICAS,
          "the app's pods request one cpu each");
    }
  }

  private static Set<String> labelNames(String labels) {
    Set<String> names = new TreeSet<>();
    if (labels != null && !labels.isEmpty()) {
      Arrays.stream(labels.split(",(?=[a-zA-Z_]+=\")")).forEach(l -> names.add(l.substring(0, l.indexOf('='))));
    }
    return names;
  }

  private String scrape(WorkerProcess worker) {
    try {
      return http.send(HttpRequest.newBuilder(URI.create(worker.metricsUrl() + "/metrics")).timeout(Duration.ofSeconds(30)).build(),
          HttpResponse.BodyHandlers.ofString()).body();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The sum of the samples of {@code series} whose labels contain {@code label}. */
  private static double sum(String body, String series, String label) {
    double total = 0;
    Matcher m = SAMPLE.matcher(body);
    while (m.find()) {
      if (m.group(1).equals(series) && (label.isEmpty() || m.group(3) != null && m.group(3).contains(label))) {
        total += Double.parseDouble(m.group(4));
      }
    }
    return total;
  }
}

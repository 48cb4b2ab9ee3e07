package dev.farrier.activities.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/reference/metrics.md is the catalog's page (written to target/metrics.md, compared with the checked-in one),
 * and the catalog is consistent: one definition per name, none both exported and listed as not exported, every
 * STABLE name of Karpenter's reference either exported or listed with its reason.
 */
class MetricsReferenceTest {
  private static final Path PAGE = Path.of("..").toAbsolutePath().normalize().resolve("docs/reference/metrics.md");

  /** The STABLE names of Karpenter v1.14.1's metrics reference under {@code karpenter_}. */
  private static final List<String> KARPENTER_STABLE = List.of("karpenter_build_info", "karpenter_nodeclaims_terminated_total",
      "karpenter_nodeclaims_created_total", "karpenter_nodes_terminated_total", "karpenter_nodes_created_total",
      "karpenter_pods_startup_duration_seconds", "karpenter_voluntary_disruption_decisions_total",
      "karpenter_scheduler_scheduling_duration_seconds", "karpenter_interruption_received_messages_total",
      "karpenter_interruption_message_queue_duration_seconds", "karpenter_interruption_instance_status_unhealthy_total",
      "karpenter_interruption_deleted_messages_total", "karpenter_cluster_state_unsynced_time_seconds",
      "karpenter_cluster_state_synced", "karpenter_cluster_state_node_count");

  @Test
  void theReferencePageIsTheCatalogs() throws Exception {
    String page = MetricsReference.page();
    Path generated = Path.of("target", "metrics.md");
    Files.createDirectories(generated.getParent());
    Files.writeString(generated, page);
    assertEquals(page, Files.exists(PAGE) ? Files.readString(PAGE) : "",
        "docs/reference/metrics.md is out of date: cp activities/target/metrics.md docs/reference/metrics.md");
  }

  @Test
  void everyNameOnceAndEveryStableNameAccountedFor() {
    Set<String> seen = new HashSet<>();
    Stream.concat(MetricCatalog.ALL.stream().map(MetricDefinition::name), MetricCatalog.NOT_EXPORTED.stream().map(MetricCatalog.NotExported::name))
        .forEach(name -> assertTrue(seen.add(name), name + " is listed twice"));
    for (String stable : KARPENTER_STABLE) {
      assertTrue(seen.contains(stable), stable + " (STABLE upstream) is neither exported nor listed as not exported");
    }
    MetricCatalog.ALL.stream().filter(m -> m.stability() == MetricDefinition.Stability.FARRIER)
        .forEach(m -> assertTrue(m.name().startsWith("farrier_"), m.name()));
    MetricCatalog.ALL.stream().filter(m -> m.stability() != MetricDefinition.Stability.FARRIER)
        .forEach(m -> assertTrue(m.name().startsWith("karpenter_"), m.name()));
  }

  @Test
  void aMeterTakesExactlyItsDefinitionsLabels() {
    var meters = new SimpleMeterRegistry();
    assertThrows(IllegalArgumentException.class, () -> MetricCatalog.NODECLAIMS_CREATED.counter(meters, "provisioned", "pool"));
    assertThrows(IllegalStateException.class, () -> MetricCatalog.NODECLAIMS_CREATED.timer(meters, "a", "b", "c"));
    var counter = MetricCatalog.NODECLAIMS_CREATED.counter(meters, "provisioned", "pool", "false");
    assertEquals("karpenter_nodeclaims_created" + MetricDefinition.RESERVED_MARK, counter.getId().getName());
    assertEquals(List.of("min_values_relaxed", "nodepool", "reason"), counter.getId().getTags().stream().map(t -> t.getKey()).toList());
  }
}

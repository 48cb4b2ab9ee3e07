package dev.farrier.sandbox.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PrometheusTextTest {
  private static final String SCRAPE = """
      # HELP jvm_memory_used_bytes The amount of used memory
      # TYPE jvm_memory_used_bytes gauge
      jvm_memory_used_bytes{area="heap",id="Eden Space"} 1.2E7
      jvm_memory_used_bytes{area="heap",id="Tenured Gen"} 3.0E7
      jvm_memory_used_bytes{area="nonheap",id="Metaspace"} 9.5E7
      jvm_memory_used_bytes_total 5
      jvm_classes_loaded_classes 18700.0
      """;

  @Test
  void sumsTheSamplesWhoseLabelsMatchAndNoOtherMetric() {
    assertEquals(42_000_000, PrometheusText.sum(SCRAPE, "jvm_memory_used_bytes", "area=\"heap\""));
    assertEquals(95_000_000, PrometheusText.sum(SCRAPE, "jvm_memory_used_bytes", "id=\"Metaspace\""));
    assertEquals(137_000_000, PrometheusText.sum(SCRAPE, "jvm_memory_used_bytes", ""));
    assertEquals(18_700, PrometheusText.sum(SCRAPE, "jvm_classes_loaded_classes", ""));
  }

  @Test
  void aMissingMetricIsAnError() {
    assertThrows(IllegalStateException.class, () -> PrometheusText.sum(SCRAPE, "jvm_threads_live_threads", ""));
  }
}

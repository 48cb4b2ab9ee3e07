package dev.farrier.activities.metrics.state;

import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.Offering;
import dev.farrier.activities.metrics.LabelledGauge;
import dev.farrier.activities.metrics.MetricCatalog;
import dev.farrier.activities.metrics.MetricsRefresh;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * The AWS provider's instance type gauges from the cloud's catalogue (cached by the provider, refreshed on its own
 * schedule), set at each scrape: every type's vCPUs and memory, and every offering's availability and hourly price by
 * capacity type and zone. Read from the provider itself, not through its metered decorator, so a scrape adds nothing to
 * {@code karpenter_cloudprovider_duration_seconds}.
 */
public final class InstanceTypeMetrics implements MetricsRefresh {
  private static final long MIB = 1024L * 1024L;

  private final CloudProvider cloud;
  private final LabelledGauge cpu;
  private final LabelledGauge memory;
  private final LabelledGauge available;
  private final LabelledGauge price;

  public InstanceTypeMetrics(CloudProvider cloud, MeterRegistry meters) {
    this.cloud = cloud;
    this.cpu = MetricCatalog.INSTANCE_TYPE_CPU.labelledGauge(meters);
    this.memory = MetricCatalog.INSTANCE_TYPE_MEMORY.labelledGauge(meters);
    this.available = MetricCatalog.OFFERING_AVAILABLE.labelledGauge(meters);
    this.price = MetricCatalog.OFFERING_PRICE.labelledGauge(meters);
  }

  @Override
  public void refresh() {
    List<LabelledGauge.Row> cpuRows = new ArrayList<>();
    List<LabelledGauge.Row> memoryRows = new ArrayList<>();
    List<LabelledGauge.Row> availableRows = new ArrayList<>();
    List<LabelledGauge.Row> priceRows = new ArrayList<>();
    for (InstanceType type : cloud.instanceTypes()) {
      cpuRows.add(new LabelledGauge.Row(List.of(type.name()), type.vcpu()));
      memoryRows.add(new LabelledGauge.Row(List.of(type.name()), (double) type.memoryMiB() * MIB));
      for (Offering o : type.offerings()) {
        List<String> labels = List.of(type.name(), o.capacityType(), o.zone());
        availableRows.add(new LabelledGauge.Row(labels, o.available() ? 1 : 0));
        priceRows.add(new LabelledGauge.Row(labels, o.pricePerHour()));
      }
    }
    cpu.set(cpuRows);
    memory.set(memoryRows);
    available.set(availableRows);
    price.set(priceRows);
  }
}

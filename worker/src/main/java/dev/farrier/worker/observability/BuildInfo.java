package dev.farrier.worker.observability;

import dev.farrier.activities.metrics.MetricCatalog;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code karpenter_build_info}: a constant 1 labelled with the worker jar's version (its manifest's
 * Implementation-Version, {@code unspecified} when it has none, as Karpenter says), the Java runtime in
 * {@code goversion}, the JVM's architecture in {@code goarch} and the commit ({@code unspecified}: the build does not
 * record it). The label names are Karpenter's, so its dashboards' version panels work.
 */
final class BuildInfo {
  private BuildInfo() {}

  static void register(MeterRegistry meters) {
    String version = BuildInfo.class.getPackage().getImplementationVersion();
    MetricCatalog.BUILD_INFO.gauge(meters, 1, v -> v, version == null ? "unspecified" : version, "java" + Runtime.version(),
        System.getProperty("os.arch"), "unspecified");
  }
}

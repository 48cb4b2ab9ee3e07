package dev.farrier.worker.observability;

import dev.farrier.activities.metrics.MetricCatalog;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * {@code karpenter_build_info}: a constant 1 labelled with the worker's version (the Maven project version, written
 * into {@code build.properties} at build time; {@code unspecified} without it, as Karpenter says), the Java runtime in
 * {@code goversion}, the JVM's architecture in {@code goarch} and the commit ({@code unspecified}: the build does not
 * record it). The label names are Karpenter's, so its dashboards' version panels work.
 */
final class BuildInfo {
  static final String UNSPECIFIED = "unspecified";

  private BuildInfo() {}

  static void register(MeterRegistry meters) {
    MetricCatalog.BUILD_INFO.gauge(meters, 1, v -> v, version(), "java" + Runtime.version(), System.getProperty("os.arch"), UNSPECIFIED);
  }

  static String version() {
    try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
      if (in == null) {
        return UNSPECIFIED;
      }
      var properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", UNSPECIFIED);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

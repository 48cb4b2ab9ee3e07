package dev.farrier.worker.config;

import dev.farrier.client.TemporalConnection;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.nio.file.Path;

/**
 * Reads how the worker reaches Temporal ({@code farrier.temporal.*}, e.g. {@code FARRIER_TEMPORAL_TLS_CA_FILE}) into
 * the {@link TemporalConnection} the CLI builds from the same environment variables.
 */
@Factory
public class TemporalConnectionFactory {
  @Singleton
  TemporalConnection temporalConnection(
      @Value("${farrier.temporal.address}") String address,
      @Value("${farrier.temporal.namespace}") String namespace,
      @Value("${farrier.temporal.tls.enabled:false}") boolean tls,
      @Value("${farrier.temporal.tls.ca-file:}") String caFile,
      @Value("${farrier.temporal.tls.cert-file:}") String certFile,
      @Value("${farrier.temporal.tls.key-file:}") String keyFile,
      @Value("${farrier.temporal.tls.server-name:}") String serverName,
      @Value("${farrier.temporal.api-key-file:}") String apiKeyFile) {
    return new TemporalConnection(address, namespace, tls, path(caFile), path(certFile), path(keyFile), serverName,
        path(apiKeyFile));
  }

  private static Path path(String value) {
    return value == null || value.isBlank() ? null : Path.of(value.strip());
  }
}

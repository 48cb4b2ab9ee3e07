package dev.farrier.activities.cloud.aws;

import java.net.URI;
import java.util.Objects;

/**
 * How Farrier reaches AWS: the region, an optional endpoint override (moto or another emulator; null = AWS
 * itself), and optional static credentials (null = the SDK's default chain: IRSA or Pod Identity in a cluster,
 * the environment or a profile elsewhere).
 */
public record AwsConnection(String region, URI endpoint, String accessKeyId, String secretAccessKey) {
  public AwsConnection {
    Objects.requireNonNull(region, "region");
    if ((accessKeyId == null) != (secretAccessKey == null)) {
      throw new IllegalArgumentException("set both an access key id and a secret access key, or neither");
    }
  }

  /** AWS itself, default credential chain. */
  public static AwsConnection of(String region) {
    return new AwsConnection(region, null, null, null);
  }

  /** An emulator such as moto at {@code endpoint}; it accepts any credentials. */
  public static AwsConnection emulator(String region, String endpoint) {
    return new AwsConnection(region, URI.create(endpoint), "farrier-test", "farrier-test");
  }
}

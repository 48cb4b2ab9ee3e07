package dev.farrier.worker.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.ReconcilerSettings;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class WorkerSettingsTest {
  private static final WorkerSettings.GcSettings GC = new WorkerSettings.GcSettings(Duration.ofMinutes(1), Duration.ofMinutes(5));

  private static WorkerSettings aws(WorkerSettings.AwsSettings aws) {
    return new WorkerSettings("prod", "127.0.0.1:7233", "default", "farrier", null, "aws", "us-east-1", aws, GC,
        ReconcilerSettings.DEFAULTS, null);
  }

  private static WorkerSettings.AwsSettings awsSettings(String endpoint, String ca, String cidr, String key, String secret) {
    return new WorkerSettings.AwsSettings(null, key, secret, endpoint, ca, cidr, "/aws/service", null, Duration.ofMinutes(30));
  }

  @Test
  void awsNeedsWhatNodesJoinAndSaysWhichKeyIsMissing() {
    assertDoesNotThrow(() -> aws(awsSettings("https://api", "Q0E=", "10.100.0.0/16", null, null)));
    var noEndpoint = assertThrows(IllegalArgumentException.class, () -> aws(awsSettings("", "Q0E=", "10.100.0.0/16", null, null)));
    assertTrue(noEndpoint.getMessage().contains("FARRIER_AWS_CLUSTER_ENDPOINT"), noEndpoint.getMessage());
    var noCa = assertThrows(IllegalArgumentException.class, () -> aws(awsSettings("https://api", null, "10.100.0.0/16", null, null)));
    assertTrue(noCa.getMessage().contains("FARRIER_AWS_CLUSTER_CA_BUNDLE"), noCa.getMessage());
    var noCidr = assertThrows(IllegalArgumentException.class, () -> aws(awsSettings("https://api", "Q0E=", " ", null, null)));
    assertTrue(noCidr.getMessage().contains("FARRIER_AWS_SERVICE_CIDR"), noCidr.getMessage());
    var halfCredentials = assertThrows(IllegalArgumentException.class, () -> aws(awsSettings("https://api", "Q0E=", "10.100.0.0/16", "AKIA", null)));
    assertTrue(halfCredentials.getMessage().contains("FARRIER_AWS_SECRET_ACCESS_KEY"), halfCredentials.getMessage());
  }

  @Test
  void anotherCloudDoesNotNeedAwsSettings() {
    var none = new WorkerSettings.AwsSettings((URI) null, null, null, "", "", "", "/aws/service", null, Duration.ofMinutes(30));
    assertDoesNotThrow(() -> new WorkerSettings("sandbox", "127.0.0.1:7233", "default", "farrier", null, "simulated", "us-east-1",
        none, GC, ReconcilerSettings.DEFAULTS, null));
  }
}

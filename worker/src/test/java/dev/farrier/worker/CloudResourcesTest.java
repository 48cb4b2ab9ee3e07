package dev.farrier.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.worker.cloud.CloudPlugin;
import org.junit.jupiter.api.Test;

class CloudResourcesTest {
  @Test
  void theWorkerAloneHasOnlyAwsAndSaysSoWhenAnotherCloudIsAskedFor() {
    var available = CloudResources.available();
    assertEquals("aws", CloudResources.plugin("aws", available).name());
    assertEquals(1, available.size(), "the production worker carries no other cloud: " + available.stream().map(CloudPlugin::name).toList());
    var e = assertThrows(IllegalArgumentException.class, () -> CloudResources.plugin("simulated", available));
    assertTrue(e.getMessage().contains("FARRIER_CLOUD") && e.getMessage().contains("'simulated' is not in this build")
        && e.getMessage().contains("it has: aws"), e.getMessage());
  }
}

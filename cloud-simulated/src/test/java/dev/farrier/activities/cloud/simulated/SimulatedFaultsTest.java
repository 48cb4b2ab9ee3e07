package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.MutableClock;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.LaunchRequest;
import dev.farrier.activities.cloud.Ownership;
import dev.farrier.activities.cloud.simulated.CloudCall.Operation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The switches the sandbox and the tests flip: API throttling, server errors, slow calls, capacity loss. */
class SimulatedFaultsTest {
  @TempDir
  Path stateDir;

  private ClockedCloud fixture;
  private MutableClock clock;
  private SimulatedCloud cloud;
  private List<Image> images;

  @BeforeEach
  void setUp() {
    fixture = ClockedCloud.start(stateDir);
    clock = fixture.clock();
    cloud = fixture.cloud();
    images = fixture.images();
  }

  private SimulatedCloudConfig config() {
    return fixture.config();
  }

  private LaunchRequest request(String claim) {
    return new LaunchRequest("sandbox", claim, "default", "default", List.of("m5.large"), List.of("on-demand"), List.of(), images,
        Ownership.launchTags("sandbox", "default", claim), Map.of(), List.of());
  }

  @Test
  void throttlingRefusesOnlyItsOperationUntilItEndsAndEveryProcessSeesIt() {
    cloud.injectFault(SimulatedCloud.RUN_INSTANCES, InjectedFault.Kind.THROTTLING, Duration.ofSeconds(30), Duration.ZERO);
    var otherProcess = new SimulatedCloud(config());

    var refused = assertThrows(CloudProviderException.class, () -> otherProcess.create(request("a")));
    assertEquals(CloudProviderException.Kind.THROTTLED, refused.kind());
    assertTrue(refused.getMessage().contains("RequestLimitExceeded"), refused.getMessage());
    assertEquals(List.of(), cloud.list("sandbox"), "other operations answer; nothing was launched");

    clock.advance(Duration.ofSeconds(30));
    assertEquals("m5.large", cloud.create(request("a")).instanceType(), "launched once the throttling ends");
    assertTrue(cloud.calls().read().stream().anyMatch(c -> c.operation() == Operation.FAULT && c.detail().equals("THROTTLING RunInstances")));
  }

  @Test
  void serverErrorsAreRetryableFailuresOfEveryOperationUntilCleared() {
    Instance launched = cloud.create(request("a"));
    cloud.injectFault("*", InjectedFault.Kind.SERVER_ERROR, Duration.ofMinutes(5), Duration.ZERO);

    var failed = assertThrows(CloudProviderException.class, () -> cloud.get(launched.id()));
    assertEquals(CloudProviderException.Kind.THROTTLED, failed.kind(), "a 5xx is worth a retry, as the AWS adapter maps it");
    assertTrue(failed.getMessage().contains("InternalError"), failed.getMessage());
    assertThrows(CloudProviderException.class, () -> cloud.delete("sandbox", "a", launched.id()));
    assertThrows(CloudProviderException.class, () -> cloud.instanceTypes());

    cloud.clearFaults();
    assertEquals("pending", cloud.get(launched.id()).orElseThrow().state(), "answers again once cleared");
  }

  @Test
  void aSlowCallStillAnswersAndIsRecorded() {
    cloud.injectFault(SimulatedCloud.DESCRIBE_INSTANCES, InjectedFault.Kind.SLOW, Duration.ofMinutes(1), Duration.ofMillis(50));

    assertEquals(List.of(), cloud.list("sandbox"));
    assertTrue(cloud.calls().read().stream().anyMatch(c -> c.operation() == Operation.FAULT && c.detail().equals("SLOW DescribeInstances +50ms")));
  }

  @Test
  void capacityLostForEveryOfferingOfATypeIsFoundByTheLaunchAndComesBackWhenGiven() {
    cloud.setOfferingsAvailable(o -> o.instanceType().equals("m5.large"), false);

    var refused = assertThrows(CloudProviderException.class, () -> cloud.create(request("a")));
    assertEquals(CloudProviderException.Kind.INSUFFICIENT_CAPACITY, refused.kind());
    assertTrue(cloud.instanceTypes().stream().filter(t -> t.name().equals("m5.large")).flatMap(t -> t.offerings().stream())
        .filter(o -> o.capacityType().equals("on-demand")).noneMatch(o -> o.available()), "the launch marked them unavailable");

    cloud.setOfferingsAvailable(o -> o.instanceType().equals("m5.large"), true);
    assertEquals("m5.large", cloud.create(request("a")).instanceType(), "given back, and tried again at once");
  }
}

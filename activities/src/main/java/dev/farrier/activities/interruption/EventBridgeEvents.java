package dev.farrier.activities.interruption;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Builds EventBridge event bodies as AWS sends them, for the simulated cloud and the sandbox to post to a queue. */
public final class EventBridgeEvents {
  private static final ObjectMapper JSON = new ObjectMapper();

  private EventBridgeEvents() {}

  /** An {@code EC2 Spot Instance Interruption Warning}: the instance is reclaimed about two minutes after {@code time}. */
  public static String spotInterruptionWarning(String instanceId, String region, String zone, Instant time) {
    return instanceWarning(EventBridgeParser.SPOT_INTERRUPTION, instanceId, region, zone, time);
  }

  /**
   * An {@code EC2 Capacity Reservation Instance Interruption Warning}: the instance's reservation (a Capacity Block
   * reaching its end) takes it back.
   */
  public static String capacityReservationInterruptionWarning(String instanceId, String region, String zone, Instant time) {
    return instanceWarning(EventBridgeParser.CAPACITY_RESERVATION_INTERRUPTION, instanceId, region, zone, time);
  }

  /**
   * An {@code EC2 Instance Rebalance Recommendation}: the instance's spot capacity is at elevated risk; its detail
   * names only the instance.
   */
  public static String rebalanceRecommendation(String instanceId, String region, String zone, Instant time) {
    return instanceEvent(EventBridgeParser.REBALANCE, instanceId, region, zone, time, Map.of("instance-id", instanceId));
  }

  private static String instanceWarning(String detailType, String instanceId, String region, String zone, Instant time) {
    return instanceEvent(detailType, instanceId, region, zone, time, Map.of("instance-id", instanceId, "instance-action", "terminate"));
  }

  private static String instanceEvent(String detailType, String instanceId, String region, String zone, Instant time,
      Map<String, String> detail) {
    Map<String, Object> event = new LinkedHashMap<>();
    event.put("version", "0");
    event.put("id", UUID.randomUUID().toString());
    event.put("detail-type", detailType);
    event.put("source", "aws.ec2");
    event.put("account", "123456789012");
    event.put("time", time.toString());
    event.put("region", region);
    event.put("resources", List.of("arn:aws:ec2:" + zone + ":instance/" + instanceId));
    event.put("detail", detail);
    try {
      return JSON.writeValueAsString(event);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("maps of strings always serialize", e);
    }
  }
}

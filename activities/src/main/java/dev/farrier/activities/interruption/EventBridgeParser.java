package dev.farrier.activities.interruption;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.farrier.activities.interruption.InterruptionMessage.Ignored;
import dev.farrier.activities.interruption.InterruptionMessage.Malformed;
import dev.farrier.activities.interruption.InterruptionMessage.Notice;
import dev.farrier.workflows.activities.InterruptionKind;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Parses the EventBridge events an interruption queue receives (the rules of Karpenter's interruption queue):
 * <ul>
 *   <li>{@code aws.ec2} / {@code EC2 Spot Instance Interruption Warning}: {@code detail.instance-id},
 *       {@code detail.instance-action};</li>
 *   <li>{@code aws.ec2} / {@code EC2 Instance Rebalance Recommendation}: {@code detail.instance-id};</li>
 *   <li>{@code aws.ec2} / {@code EC2 Capacity Reservation Instance Interruption Warning}: {@code detail.instance-id},
 *       {@code detail.instance-action} (a Capacity Block's end, or an interruptible reservation taken back);</li>
 *   <li>{@code aws.ec2} / {@code EC2 Instance State-change Notification}: {@code detail.instance-id},
 *       {@code detail.state}; stopping, stopped, shutting-down and terminated are notices, other states ignored;</li>
 *   <li>{@code aws.health} / {@code AWS Health Event} with {@code detail.service = EC2} and
 *       {@code detail.eventTypeCategory = scheduledChange}: the instance ids in
 *       {@code detail.affectedEntities[].entityValue}; Health events of other services or categories are ignored.</li>
 * </ul>
 * Anything else is {@link Malformed}. Pure: no I/O, no clock.
 */
public final class EventBridgeParser {
  static final String SPOT_INTERRUPTION = "EC2 Spot Instance Interruption Warning";
  static final String REBALANCE = "EC2 Instance Rebalance Recommendation";
  static final String CAPACITY_RESERVATION_INTERRUPTION = "EC2 Capacity Reservation Instance Interruption Warning";
  static final String STATE_CHANGE = "EC2 Instance State-change Notification";
  static final String HEALTH = "AWS Health Event";
  static final Set<String> LEAVING_STATES = Set.of("stopping", "stopped", "shutting-down", "terminated");
  private static final Pattern INSTANCE_ID = Pattern.compile("i-[0-9a-f]{8,17}");
  private static final ObjectMapper JSON = new ObjectMapper();

  private EventBridgeParser() {}

  public static InterruptionMessage parse(String body) {
    JsonNode event;
    try {
      event = JSON.readTree(body == null ? "" : body);
    } catch (JsonProcessingException e) {
      return new Malformed("not JSON: " + e.getOriginalMessage());
    }
    if (event == null || !event.isObject()) {
      return new Malformed("not a JSON object");
    }
    String source = text(event, "source");
    String detailType = text(event, "detail-type");
    JsonNode detail = event.get("detail");
    if (source == null || detailType == null || detail == null || !detail.isObject()) {
      return new Malformed("not an EventBridge event (source, detail-type and detail are required)");
    }
    Instant time;
    try {
      String raw = text(event, "time");
      if (raw == null) {
        return new Malformed(detailType + " without a time");
      }
      time = Instant.parse(raw);
    } catch (DateTimeParseException e) {
      return new Malformed(detailType + " with a time that is not ISO-8601: " + text(event, "time"));
    }
    return switch (source + "|" + detailType) {
      case "aws.ec2|" + SPOT_INTERRUPTION -> withInstance(detail, detailType, id -> new Notice(InterruptionKind.SpotInterruption,
          List.of(id), time, "instance-action " + orElse(text(detail, "instance-action"), "terminate")));
      case "aws.ec2|" + CAPACITY_RESERVATION_INTERRUPTION -> withInstance(detail, detailType, id -> new Notice(
          InterruptionKind.CapacityReservationInterruption, List.of(id), time,
          "capacity reservation instance-action " + orElse(text(detail, "instance-action"), "terminate")));
      case "aws.ec2|" + REBALANCE -> withInstance(detail, detailType,
          id -> new Notice(InterruptionKind.RebalanceRecommendation, List.of(id), time, "rebalance recommended"));
      case "aws.ec2|" + STATE_CHANGE -> stateChange(detail, time);
      case "aws.health|" + HEALTH -> health(detail, time);
      default -> new Malformed("unknown event source=" + source + " detail-type=" + detailType);
    };
  }

  private static InterruptionMessage stateChange(JsonNode detail, Instant time) {
    String state = text(detail, "state");
    if (state == null) {
      return new Malformed(STATE_CHANGE + " without detail.state");
    }
    if (!LEAVING_STATES.contains(state)) {
      return withInstance(detail, STATE_CHANGE, id -> new Ignored("instance " + id + " entered state " + state));
    }
    return withInstance(detail, STATE_CHANGE,
        id -> new Notice(InterruptionKind.InstanceStateChange, List.of(id), time, "state " + state));
  }

  private static InterruptionMessage health(JsonNode detail, Instant time) {
    String service = text(detail, "service");
    String category = text(detail, "eventTypeCategory");
    if (!"EC2".equals(service) || !"scheduledChange".equals(category)) {
      return new Ignored("AWS Health event service=" + service + " category=" + category);
    }
    JsonNode entities = detail.get("affectedEntities");
    if (entities == null || !entities.isArray() || entities.isEmpty()) {
      return new Malformed(HEALTH + " scheduledChange without detail.affectedEntities");
    }
    List<String> ids = new ArrayList<>();
    for (JsonNode entity : entities) {
      String id = text(entity, "entityValue");
      if (id == null || !INSTANCE_ID.matcher(id).matches()) {
        return new Malformed(HEALTH + " with an affected entity that is not an instance id: " + id);
      }
      ids.add(id);
    }
    return new Notice(InterruptionKind.ScheduledChange, ids, time,
        orElse(text(detail, "eventTypeCode"), "scheduled change"));
  }

  private static InterruptionMessage withInstance(JsonNode detail, String detailType,
      java.util.function.Function<String, InterruptionMessage> then) {
    String id = text(detail, "instance-id");
    if (id == null || !INSTANCE_ID.matcher(id).matches()) {
      return new Malformed(detailType + " without a valid detail.instance-id: " + id);
    }
    return then.apply(id);
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node == null ? null : node.get(field);
    return value != null && value.isTextual() && !value.asText().isBlank() ? value.asText() : null;
  }

  private static String orElse(String value, String fallback) {
    return value == null ? fallback : value;
  }
}

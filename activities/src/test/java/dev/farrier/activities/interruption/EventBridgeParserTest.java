package dev.farrier.activities.interruption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.interruption.InterruptionMessage.Ignored;
import dev.farrier.activities.interruption.InterruptionMessage.Malformed;
import dev.farrier.activities.interruption.InterruptionMessage.Notice;
import dev.farrier.workflows.activities.InterruptionKind;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Message bodies as EventBridge delivers them to SQS (shapes from the EC2 and AWS Health event documentation). */
class EventBridgeParserTest {
  static final String SPOT = """
      {"version":"0","id":"1e5527d7-bb36-4607-3370-4164db56a40e","detail-type":"EC2 Spot Instance Interruption Warning",
       "source":"aws.ec2","account":"123456789012","time":"2026-11-21T10:00:00Z","region":"us-east-1",
       "resources":["arn:aws:ec2:us-east-1b:instance/i-0b662ef9931388ba0"],
       "detail":{"instance-id":"i-0b662ef9931388ba0","instance-action":"terminate"}}""";
  /** As EventBridge delivers aws.ec2@EC2CapacityReservationInstanceInterruptionWarning (a Capacity Block's end). */
  static final String CAPACITY_BLOCK_END = """
      {"version":"0","id":"9","detail-type":"EC2 Capacity Reservation Instance Interruption Warning","source":"aws.ec2",
       "account":"123456789012","time":"2026-11-21T10:04:00Z","region":"us-east-1",
       "resources":["arn:aws:ec2:us-east-1a:instance/i-0c1d2e3f405162738"],
       "detail":{"instance-id":"i-0c1d2e3f405162738","instance-action":"terminate"}}""";
  static final String REBALANCE = """
      {"version":"0","id":"2","detail-type":"EC2 Instance Rebalance Recommendation","source":"aws.ec2",
       "account":"123456789012","time":"2026-11-21T10:01:00Z","region":"us-east-1",
       "resources":["arn:aws:ec2:us-east-1b:instance/i-0abcdef1234567890"],
       "detail":{"instance-id":"i-0abcdef1234567890"}}""";
  static final String HEALTH = """
      {"version":"0","id":"7bf73129-1428-4cd3-a780-95db273d1602","detail-type":"AWS Health Event","source":"aws.health",
       "account":"123456789012","time":"2026-11-21T10:02:00Z","region":"us-east-1",
       "resources":["i-0abcdef1234567890","i-0123456789abcdef0"],
       "detail":{"eventArn":"arn:aws:health:us-east-1::event/EC2/AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED/AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED_1",
         "service":"EC2","eventTypeCode":"AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED","eventTypeCategory":"scheduledChange",
         "startTime":"Sat, 28 Nov 2026 10:00:00 GMT","endTime":"Sat, 28 Nov 2026 12:00:00 GMT",
         "eventDescription":[{"language":"en_US","latestDescription":"EC2 has detected degradation of the underlying hardware."}],
         "affectedEntities":[{"entityValue":"i-0abcdef1234567890"},{"entityValue":"i-0123456789abcdef0"}]}}""";

  static String stateChange(String state) {
    return """
        {"version":"0","id":"3","detail-type":"EC2 Instance State-change Notification","source":"aws.ec2",
         "account":"123456789012","time":"2026-11-21T10:03:00Z","region":"us-east-1",
         "resources":["arn:aws:ec2:us-east-1:123456789012:instance/i-0abcdef1234567890"],
         "detail":{"instance-id":"i-0abcdef1234567890","state":"%s"}}""".formatted(state);
  }

  static Stream<Arguments> notices() {
    return Stream.of(
        Arguments.of("spot interruption", SPOT, InterruptionKind.SpotInterruption, List.of("i-0b662ef9931388ba0"),
            "2026-11-21T10:00:00Z", "instance-action terminate"),
        Arguments.of("capacity block end", CAPACITY_BLOCK_END, InterruptionKind.CapacityReservationInterruption,
            List.of("i-0c1d2e3f405162738"), "2026-11-21T10:04:00Z", "capacity reservation instance-action terminate"),
        Arguments.of("rebalance", REBALANCE, InterruptionKind.RebalanceRecommendation, List.of("i-0abcdef1234567890"),
            "2026-11-21T10:01:00Z", "rebalance recommended"),
        Arguments.of("health scheduled change", HEALTH, InterruptionKind.ScheduledChange,
            List.of("i-0abcdef1234567890", "i-0123456789abcdef0"), "2026-11-21T10:02:00Z", "AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED"),
        Arguments.of("stopping", stateChange("stopping"), InterruptionKind.InstanceStateChange, List.of("i-0abcdef1234567890"),
            "2026-11-21T10:03:00Z", "state stopping"),
        Arguments.of("stopped", stateChange("stopped"), InterruptionKind.InstanceStateChange, List.of("i-0abcdef1234567890"),
            "2026-11-21T10:03:00Z", "state stopped"),
        Arguments.of("shutting-down", stateChange("shutting-down"), InterruptionKind.InstanceStateChange,
            List.of("i-0abcdef1234567890"), "2026-11-21T10:03:00Z", "state shutting-down"),
        Arguments.of("terminated", stateChange("terminated"), InterruptionKind.InstanceStateChange,
            List.of("i-0abcdef1234567890"), "2026-11-21T10:03:00Z", "state terminated"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("notices")
  void parsesNotices(String name, String body, InterruptionKind kind, List<String> ids, String time, String detail) {
    Notice notice = assertInstanceOf(Notice.class, EventBridgeParser.parse(body));
    assertEquals(kind, notice.kind());
    assertEquals(ids, notice.instanceIds());
    assertEquals(Instant.parse(time), notice.time());
    assertEquals(detail, notice.detail());
  }

  static Stream<Arguments> ignored() {
    return Stream.of(
        Arguments.of("running", stateChange("running"), "entered state running"),
        Arguments.of("pending", stateChange("pending"), "entered state pending"),
        Arguments.of("health of another service", HEALTH.replace("\"service\":\"EC2\"", "\"service\":\"RDS\""), "service=RDS"),
        Arguments.of("health issue, not a scheduled change",
            HEALTH.replace("\"eventTypeCategory\":\"scheduledChange\"", "\"eventTypeCategory\":\"issue\""), "category=issue"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("ignored")
  void ignoresEventsThatNeedNothing(String name, String body, String why) {
    Ignored ignored = assertInstanceOf(Ignored.class, EventBridgeParser.parse(body));
    assertTrue(ignored.why().contains(why), ignored.why());
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("not JSON", "this is not json {", "not JSON"),
        Arguments.of("empty body", "", "not a JSON object"),
        Arguments.of("a JSON array", "[1,2]", "not a JSON object"),
        Arguments.of("no detail-type", "{\"source\":\"aws.ec2\",\"detail\":{}}", "not an EventBridge event"),
        Arguments.of("detail not an object", SPOT.replaceAll("\"detail\":\\{.*}}", "\"detail\":\"x\"}"), "not an EventBridge event"),
        Arguments.of("unknown detail-type", SPOT.replace("EC2 Spot Instance Interruption Warning", "EC2 Fleet Error"), "unknown event"),
        Arguments.of("unknown source", SPOT.replace("\"aws.ec2\"", "\"aws.s3\""), "unknown event"),
        Arguments.of("no instance id", SPOT.replace("\"instance-id\":\"i-0b662ef9931388ba0\",", ""), "instance-id"),
        Arguments.of("instance id not an id", SPOT.replace("\"instance-id\":\"i-0b662ef9931388ba0\"", "\"instance-id\":\"node-1\""),
            "instance-id: node-1"),
        Arguments.of("no time", SPOT.replace("\"time\":\"2026-11-21T10:00:00Z\",", ""), "without a time"),
        Arguments.of("bad time", SPOT.replace("2026-11-21T10:00:00Z", "yesterday"), "not ISO-8601"),
        Arguments.of("state change without a state", stateChange("x").replace(",\"state\":\"x\"", ""), "without detail.state"),
        Arguments.of("health without entities", HEALTH.replaceAll("\"affectedEntities\":\\[.*]", "\"affectedEntities\":[]"),
            "without detail.affectedEntities"),
        Arguments.of("health entity not an instance", HEALTH.replace("{\"entityValue\":\"i-0123456789abcdef0\"}",
            "{\"entityValue\":\"vol-0123\"}"), "not an instance id: vol-0123"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void reportsMalformedMessagesWithTheReason(String name, String body, String why) {
    Malformed malformed = assertInstanceOf(Malformed.class, EventBridgeParser.parse(body));
    assertTrue(malformed.why().contains(why), malformed.why());
  }

  @Test
  void aSpotWarningWithoutAnActionStillMeansTerminate() {
    Notice notice = assertInstanceOf(Notice.class,
        EventBridgeParser.parse(SPOT.replace(",\"instance-action\":\"terminate\"", "")));
    assertEquals("instance-action terminate", notice.detail());
  }

  @Test
  void theSimulatedCloudsWarningParsesLikeTheRealOne() {
    String body = EventBridgeEvents.spotInterruptionWarning("i-0123456789abcdef0", "us-east-1", "us-east-1b",
        Instant.parse("2026-11-21T10:00:00Z"));
    Notice notice = assertInstanceOf(Notice.class, EventBridgeParser.parse(body));
    assertEquals(InterruptionKind.SpotInterruption, notice.kind());
    assertEquals(List.of("i-0123456789abcdef0"), notice.instanceIds());
  }

  @Test
  void theSimulatedCloudsRebalanceRecommendationParsesLikeTheRealOne() {
    String body = EventBridgeEvents.rebalanceRecommendation("i-0123456789abcdef0", "us-east-1", "us-east-1b",
        Instant.parse("2026-11-21T10:00:00Z"));
    Notice notice = assertInstanceOf(Notice.class, EventBridgeParser.parse(body));
    assertEquals(InterruptionKind.RebalanceRecommendation, notice.kind());
    assertEquals(List.of("i-0123456789abcdef0"), notice.instanceIds());
  }
}

package dev.farrier.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.farrier.workflows.FarrierSearchAttributes;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.common.SearchAttributes;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code farrier list} without a server: the query it sends, the rows it reads from search attributes, what it
 * prints. Temporal's time-skipping test server has no visibility list, so the listing itself runs against a real
 * dev server in FarrierCliDevServerTest.
 */
class FarrierCliListTest {
  private static final Instant START = Instant.parse("2026-11-23T10:00:00Z");

  @Test
  void queryListsTheClustersRunningReplacements() {
    assertEquals("WorkflowType = 'NodeReplacementWorkflow' AND FarrierCluster = 'prod' AND ExecutionStatus = 'Running'",
        new ReplacementQuery("prod", false, false, null).text());
  }

  @Test
  void queryFilters() {
    assertEquals("WorkflowType = 'NodeReplacementWorkflow' AND FarrierCluster = 'prod' AND ExecutionStatus = 'Running'"
            + " AND FarrierBlocker IS NOT NULL AND FarrierNodePool = 'gpu'",
        new ReplacementQuery("prod", false, true, "gpu").text());
    assertEquals("WorkflowType = 'NodeReplacementWorkflow' AND FarrierCluster = 'prod'"
            + " AND ExecutionStatus != 'ContinuedAsNew'",
        new ReplacementQuery("prod", true, false, null).text());
  }

  @Test
  void queryRefusesQuotesRatherThanEscapingThem() {
    var e = assertThrows(IllegalArgumentException.class, () -> new ReplacementQuery("prod", false, false, "a' OR 'x'='x"));
    assertTrue(e.getMessage().startsWith("--nodepool must be a non-empty name without quotes"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new ReplacementQuery("pr\\od", false, false, null));
  }

  @Test
  void aQuotedNodePoolIsAUsageError() {
    var cli = new FarrierCli();
    cli.clientFactory = ignored -> {
      throw new AssertionError("no query is sent");
    };
    var run = FarrierCliTest.execute(cli, "list", "--nodepool", "x'y");
    assertEquals(2, run.exitCode(), run::toString);
    assertTrue(run.err().startsWith("--nodepool must be a non-empty name without quotes or backslashes: x'y"), run.err());
  }

  private static ReplacementRow blockedRow() {
    var attributes = SearchAttributes.newBuilder()
        .set(FarrierSearchAttributes.CLUSTER, "prod")
        .set(FarrierSearchAttributes.NODE_CLAIM, "default-abc12")
        .set(FarrierSearchAttributes.NODE, "ip-10-0-1-1.ec2.internal")
        .set(FarrierSearchAttributes.NODE_POOL, "default")
        .set(FarrierSearchAttributes.REASON, "drifted")
        .set(FarrierSearchAttributes.PHASE, "Draining")
        .set(FarrierSearchAttributes.BLOCKER, "PodDisruptionBudget default/web-pdb")
        .build();
    return ReplacementRow.of("disrupt/default-abc12", attributes, WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING, START);
  }

  /** A replacement started before FarrierNodeClaim and FarrierBlocker existed, long ended. */
  private static ReplacementRow olderRow() {
    var attributes = SearchAttributes.newBuilder()
        .set(FarrierSearchAttributes.NODE_POOL, "spot")
        .set(FarrierSearchAttributes.REASON, "expired")
        .set(FarrierSearchAttributes.PHASE, "Done")
        .build();
    return ReplacementRow.of("disrupt/spot-xyz", attributes, WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED, START);
  }

  @Test
  void rowsComeFromTheSearchAttributes() {
    var row = blockedRow();
    assertEquals(new ReplacementRow("disrupt/default-abc12", "default-abc12", "ip-10-0-1-1.ec2.internal", "default",
        "drifted", "Draining", "Running", "PodDisruptionBudget default/web-pdb", null, "2026-11-23T10:00:00Z"), row);
    assertTrue(row.running());

    var older = olderRow();
    assertEquals("spot-xyz", older.nodeClaim(), "without FarrierNodeClaim the workflow id names the claim");
    assertNull(older.node());
    assertNull(older.blocker());
    assertEquals("Completed", older.status());
  }

  @Test
  void tableHasTheColumnsAndSaysHowLongEachIsBlocked() {
    String table = ReplacementTable.text(List.of(blockedRow().withBlockedForSeconds(133L), olderRow()), false);

    assertEquals(String.join("\n",
        "NODECLAIM       NODE                       NODEPOOL   REASON    PHASE      BLOCKED-FOR   BLOCKER",
        "default-abc12   ip-10-0-1-1.ec2.internal   default    drifted   Draining   2m13s         PodDisruptionBudget default/web-pdb",
        "spot-xyz        -                          spot       expired   Done       -             -",
        ""), table);
  }

  @Test
  void tableWithClosedReplacementsShowsTheirStatusAndAnUnknownWait() {
    String table = ReplacementTable.text(List.of(blockedRow(), olderRow()), true);

    List<String> lines = table.lines().toList();
    assertEquals("NODECLAIM       NODE                       NODEPOOL   REASON    PHASE      STATUS      BLOCKED-FOR   BLOCKER", lines.get(0));
    assertTrue(lines.get(1).contains(" Draining   Running     ?             PodDisruptionBudget"), lines.get(1));
    assertTrue(lines.get(2).contains(" Done       Completed   -             -"), lines.get(2));
  }

  @Test
  void jsonIsAnArrayOfRows() throws IOException {
    JsonNode json = Json.MAPPER.readTree(ReplacementTable.json(List.of(blockedRow().withBlockedForSeconds(133L), olderRow())));

    assertTrue(json.isArray());
    assertEquals(2, json.size());
    JsonNode first = json.get(0);
    assertEquals("default-abc12", first.get("nodeClaim").asText());
    assertEquals("disrupt/default-abc12", first.get("workflowId").asText());
    assertEquals("PodDisruptionBudget default/web-pdb", first.get("blocker").asText());
    assertEquals(133, first.get("blockedForSeconds").asLong());
    assertEquals("Running", first.get("status").asText());
    assertTrue(json.get(1).get("blocker").isNull());
    assertEquals(blockedRow().withBlockedForSeconds(133L), Json.MAPPER.treeToValue(first, ReplacementRow.class));
  }

  @Test
  void blockedForReadsLikeAWait() {
    assertEquals("45s", BlockedFor.format(45));
    assertEquals("2m13s", BlockedFor.format(133));
    assertEquals("1h04m", BlockedFor.format(3840));
    assertEquals("3d02h", BlockedFor.format(3 * 86_400 + 2 * 3600 + 59));
  }
}

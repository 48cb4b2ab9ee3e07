package dev.farrier.starter;

import dev.farrier.model.Freeze;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import io.temporal.client.WorkflowClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "list", description = {"The cluster's replacements, from Temporal's visibility (search attributes "
    + "FarrierCluster, FarrierNodePool, FarrierPhase, FarrierBlocker, ...): running ones unless --all.",
    "BLOCKED-FOR asks each blocked replacement since when (its progress query); everything else comes from the listing."})
final class ListCommand extends FarrierCommand {
  @Option(names = "--all", description = "include replacements that have ended")
  boolean all;

  @Option(names = "--blocked", description = "only replacements something blocks now (a PDB, do-not-disrupt pods, a "
      + "failed step, an approval)")
  boolean blocked;

  @Option(names = "--nodepool", paramLabel = "NAME", description = "only replacements of this NodePool")
  String nodePool;

  @Option(names = {"-o", "--output"}, defaultValue = "text", paramLabel = "FORMAT", description = "text (a table) or json (an array) (default ${DEFAULT-VALUE})")
  Output output;

  @Override
  public Integer call() {
    ReplacementQuery query;
    try {
      query = new ReplacementQuery(parent.cluster, all, blocked, nodePool);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    WorkflowClient client = client();
    List<ReplacementRow> rows = client.listExecutions(query.text()).map(ReplacementRow::of)
        .sorted(Comparator.comparing(ReplacementRow::nodeClaim, Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(ReplacementRow::startTime, Comparator.nullsLast(Comparator.reverseOrder())))
        .toList();
    rows = withBlockedFor(client, rows, parent.clock.instant());
    if (output == Output.TEXT) {
      List<Freeze> freezes = FreezeCommands.inForce(client, parent.cluster);
      if (freezes == null) {
        err().println("freezes unknown: reconciler/" + parent.cluster + " did not answer");
      } else {
        freezes.forEach(f -> out().println("FROZEN: " + f.describe()));
      }
    }
    if (output == Output.JSON) {
      out().println(ReplacementTable.json(rows));
    } else if (rows.isEmpty()) {
      err().printf("no %s%sreplacements in cluster %s%s%n", all ? "" : "running ", blocked ? "blocked " : "",
          parent.cluster, nodePool == null ? "" : " (nodepool " + nodePool + ")");
    } else {
      out().print(ReplacementTable.text(rows, all));
      out().flush();
    }
    return ExitCodes.DONE;
  }

  /**
   * Asks each running, blocked replacement since when (in parallel: one query each). A replacement that does not
   * answer (no worker, an old history) keeps an unknown BLOCKED-FOR rather than failing the whole list.
   */
  private static List<ReplacementRow> withBlockedFor(WorkflowClient client, List<ReplacementRow> rows, Instant now) {
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<Long>> since = new ArrayList<>();
      for (ReplacementRow row : rows) {
        since.add(row.blocker() == null || !row.running() ? null : executor.submit(() ->
            BlockedFor.seconds(client.newWorkflowStub(NodeReplacementWorkflow.class, row.workflowId()).progress().blocker(), now)));
      }
      List<ReplacementRow> result = new ArrayList<>();
      for (int i = 0; i < rows.size(); i++) {
        result.add(since.get(i) == null ? rows.get(i) : rows.get(i).withBlockedForSeconds(answer(since.get(i))));
      }
      return result;
    }
  }

  private static Long answer(Future<Long> query) {
    try {
      return query.get();
    } catch (ExecutionException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}

package dev.farrier.sandbox.chaos;

import dev.farrier.activities.cloud.simulated.CloudCallLog;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.sandbox.chaos.ChaosSoak.Played;
import dev.farrier.sandbox.chaos.ChaosSoak.Result;
import dev.farrier.workflows.FarrierSearchAttributes;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A soak's report ({@code report.md} in its run directory): the verdict and its figures first, then the steps played by
 * kind and one by one, then every violation with its timeline, gathered once the fleet settled: the Kubernetes Events,
 * the Temporal workflows and the cloud calls naming its subject.
 */
final class ChaosReport {
  private static final int TIMELINE_LIMIT = 12;
  private final SandboxEnvironment env;
  private final SimulatedCloud cloud;

  ChaosReport(SandboxEnvironment env, SimulatedCloud cloud) {
    this.env = env;
    this.cloud = cloud;
  }

  void write(Result result, Instant start) throws IOException {
    var text = new StringBuilder();
    var options = result.options();
    text.append("# Chaos soak, seed ").append(options.seed()).append("\n\n");
    text.append("| | |\n|---|---|\n");
    row(text, "verdict", result.passed() ? "**passed**: no violation, settled" : "**failed**");
    row(text, "started", start.toString());
    row(text, "churn and faults", options.duration().toMinutes() + " min, " + result.played().size() + " steps played");
    row(text, "fleet", "3 NodePools of about " + options.size() + " nodes; peak " + result.peakInstances() + " live instances (2 foreign)");
    row(text, "observations", result.observations() + " checked, " + result.unobserved() + " missed (a component down or hung)");
    row(text, "violations", Integer.toString(result.violations().size()));
    row(text, "last fault over", "+" + result.faultsEnded().toSeconds() + " s");
    row(text, "settled", result.settled() ? result.settleTime().toSeconds() + " s after the last fault"
        : "not within " + options.settleTimeout() + ": " + result.unsettled());
    result.checks().forEach((name, count) -> row(text, "checks: " + name, Integer.toString(count)));
    text.append("\nIts row in docs/SAFETY.md's results:\n\n").append(RESULTS_HEADER).append(resultsRow(result)).append("\n");
    text.append("\n## Steps by kind\n\n| kind | timeline | played | failed | what |\n|---|---|---:|---:|---|\n");
    Map<ChaosPlan.Kind, List<Played>> byKind = result.played().stream()
        .collect(Collectors.groupingBy(Played::step, LinkedHashMap::new, Collectors.toList())).values().stream().flatMap(List::stream)
        .collect(Collectors.groupingBy(p -> p.step().kind(), () -> new TreeMap<>(), Collectors.toList()));
    byKind.forEach((kind, steps) -> text.append("| ").append(kind).append(" | ").append(kind.timeline()).append(" | ")
        .append(steps.size()).append(" | ").append(steps.stream().filter(Played::failed).count()).append(" | ").append(kind.words())
        .append(" |\n"));
    text.append("\n## Rollouts\n\n");
    result.rollouts().forEach(r -> text.append("- ").append(r).append('\n'));
    text.append("\n## Violations\n\n");
    if (result.violations().isEmpty()) {
      text.append("None.\n");
    }
    for (var entry : grouped(result.violations()).entrySet()) {
      List<Violation> seen = entry.getValue();
      Violation first = seen.getFirst();
      text.append("### ").append(first.invariant()).append(' ').append(first.subject()).append("\n\n")
          .append(first.invariant().promise()).append(". Seen ").append(seen.size()).append(" times, first at +")
          .append(Duration.between(start, first.at()).toSeconds()).append(" s, last at +")
          .append(Duration.between(start, seen.getLast().at()).toSeconds()).append(" s: ").append(first.detail()).append("\n\n");
      timeline(text, first.subject(), start);
    }
    text.append("\n## Every step\n\n| started | ended | kind | outcome |\n|---:|---:|---|---|\n");
    result.played().stream().sorted(java.util.Comparator.comparing(Played::started)).forEach(p -> text.append("| +")
        .append(p.started().toSeconds()).append(" s | +").append(p.ended().toSeconds()).append(" s | ").append(p.step().kind())
        .append(" | ").append(p.outcome().lines().findFirst().orElse("").replace("|", "\\|")).append(" |\n"));
    Files.writeString(result.report(), text);
  }

  /** The header of the results table docs/SAFETY.md keeps, one row a soak. */
  static final String RESULTS_HEADER = "| seed | churn and faults | nodes (peak live instances) | steps | worker kill -9s | other faults"
      + " | observations (missed) | violations | settled after the last fault |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";

  static String resultsRow(Result result) {
    var counts = result.played().stream().collect(Collectors.groupingBy(p -> p.step().kind(), Collectors.counting()));
    long kills = counts.getOrDefault(ChaosPlan.Kind.KILL_LEADER, 0L) + counts.getOrDefault(ChaosPlan.Kind.KILL_OTHER, 0L);
    long faults = result.played().stream().filter(p -> p.step().kind().fault()).count() - kills;
    return "| " + result.options().seed() + " | " + result.options().duration().toMinutes() + " min | " + 3 * result.options().size()
        + " (" + result.peakInstances() + ") | " + result.played().size() + " | " + kills + " | " + faults + " | " + result.observations()
        + " (" + result.unobserved() + ") | " + result.violations().size() + " | "
        + (result.settled() ? result.settleTime().toSeconds() + " s" : "not settled") + " |\n";
  }

  private static void row(StringBuilder text, String name, String value) {
    text.append("| ").append(name).append(" | ").append(value.replace("|", "\\|")).append(" |\n");
  }

  private static Map<String, List<Violation>> grouped(List<Violation> violations) {
    return violations.stream().collect(Collectors.groupingBy(v -> v.invariant() + " " + v.subject(), LinkedHashMap::new,
        Collectors.toList()));
  }

  /** The Events, workflows and cloud calls that name {@code subject}, each as a line with its time. */
  private void timeline(StringBuilder text, String subject, Instant start) {
    List<String> lines = new ArrayList<>();
    try {
      env.kube().v1().events().inAnyNamespace().list().getItems().stream()
          .filter(e -> subject.equals(e.getInvolvedObject().getName()) || (e.getMessage() != null && e.getMessage().contains(subject)))
          .limit(TIMELINE_LIMIT)
          .forEach(e -> lines.add(time(e.getLastTimestamp() != null ? e.getLastTimestamp() : String.valueOf(e.getEventTime()), start)
              + " Event " + e.getReason() + " on " + e.getInvolvedObject().getKind() + " " + e.getInvolvedObject().getName() + ": "
              + e.getMessage()));
    } catch (RuntimeException e) {
      lines.add("(Events unreadable: " + e.getMessage() + ")");
    }
    try {
      String query = FarrierSearchAttributes.CLUSTER.getName() + "=\"" + env.cluster() + "\" AND ("
          + FarrierSearchAttributes.NODE_CLAIM.getName() + "=\"" + subject + "\" OR " + FarrierSearchAttributes.NODE.getName() + "=\""
          + subject + "\" OR " + FarrierSearchAttributes.INSTANCE_ID.getName() + "=\"" + subject + "\")";
      env.temporal().listExecutions(query).limit(TIMELINE_LIMIT).forEach(w -> lines.add(time(w.getExecution().getWorkflowId(), start)
          + " workflow " + w.getExecution().getWorkflowId() + " (" + w.getWorkflowType() + ") " + w.getStatus()));
    } catch (RuntimeException e) {
      lines.add("(workflows unreadable: " + e.getMessage() + ")");
    }
    new CloudCallLog(cloud.config().stateDir()).read().stream()
        .filter(c -> subject.equals(c.instanceId()) || subject.equals(c.nodeClaim())).limit(TIMELINE_LIMIT)
        .forEach(c -> lines.add("+" + Duration.between(start, c.time()).toSeconds() + " s cloud " + c.operation() + " " + c.instanceId()
            + " " + c.nodeClaim() + " " + c.detail()));
    lines.forEach(l -> text.append("- ").append(l).append('\n'));
    text.append('\n');
  }

  private static String time(String text, Instant start) {
    try {
      return "+" + Duration.between(start, Instant.parse(text)).toSeconds() + " s";
    } catch (RuntimeException e) {
      return "";
    }
  }
}

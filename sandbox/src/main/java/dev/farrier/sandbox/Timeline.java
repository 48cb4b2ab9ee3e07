package dev.farrier.sandbox;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What happened, in order, from three sources: the Events Farrier records on Nodes and NodeClaims, the simulated
 * cloud's call record, and the node transitions the {@link ClusterRecorder} saw.
 */
public final class Timeline {
  public record Entry(Instant at, String source, String subject, String what) {}

  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
  private final List<Entry> entries = new ArrayList<>();

  public Timeline add(Entry entry) {
    entries.add(entry);
    return this;
  }

  /** Adds Farrier's Events (reporting component {@code farrier}) from every namespace. */
  public Timeline addFarrierEvents(KubernetesClient kube) {
    for (Event e : kube.v1().events().inAnyNamespace().list().getItems()) {
      boolean farrier = "farrier".equals(e.getReportingComponent())
          || (e.getSource() != null && "farrier".equals(e.getSource().getComponent()));
      if (!farrier) {
        continue;
      }
      var subject = e.getInvolvedObject().getKind() + "/" + e.getInvolvedObject().getName();
      entries.add(new Entry(eventTime(e), "event", subject, e.getReason() + ": " + e.getMessage()));
    }
    return this;
  }

  public Timeline addRecorder(ClusterRecorder recorder) {
    for (var m : recorder.nodeMoments()) {
      entries.add(new Entry(m.at(), "watch", "Node/" + m.node(), m.what()));
    }
    return this;
  }

  private static Instant eventTime(Event e) {
    if (e.getEventTime() != null && e.getEventTime().getTime() != null) {
      return OffsetDateTime.parse(e.getEventTime().getTime()).toInstant();
    }
    var ts = e.getFirstTimestamp() != null ? e.getFirstTimestamp() : e.getLastTimestamp();
    return ts == null ? Instant.EPOCH : OffsetDateTime.parse(ts).toInstant();
  }

  public List<Entry> entries() {
    return entries.stream().sorted(Comparator.comparing(Entry::at)).toList();
  }

  public void print(PrintStream out, Instant origin) {
    for (var e : entries()) {
      var offset = Duration.between(origin, e.at());
      out.printf("  %s  %+8.1fs  %-6s %-55s %s%n", CLOCK.format(e.at()), offset.toMillis() / 1000.0, e.source(), e.subject(), e.what());
    }
  }
}

package dev.farrier.workflows.testing;

import dev.farrier.workflows.activities.DrainRequest;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.EventRequest;
import dev.farrier.workflows.activities.NodeActivities;
import dev.farrier.workflows.activities.NodeRef;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A hand-written NodeActivities. Drains succeed in one pass unless a test scripts {@link #onDrainStep}; Events are
 * kept for assertions ({@link #events()}) and journaled as {@code recordEvent <reason> <name>}.
 */
public class FakeNodeActivities implements NodeActivities {
  private volatile boolean cordonedByOperator;
  private final CallJournal journal;
  private final List<EventRequest> events = new ArrayList<>();
  private final List<DrainRequest> drainRequests = new ArrayList<>();
  private volatile Function<DrainRequest, DrainStatus> drainStep = r -> drained(List.of());

  public FakeNodeActivities(CallJournal journal) {
    this.journal = journal;
  }

  public static DrainStatus drained(List<String> evicted) {
    return new DrainStatus(evicted, List.of(), List.of(), List.of());
  }

  public static DrainStatus blockedByPdb(List<String> remaining, String pdb) {
    return new DrainStatus(List.of(), remaining, List.of(pdb), List.of());
  }

  public FakeNodeActivities onDrainStep(Function<DrainRequest, DrainStatus> behaviour) {
    this.drainStep = behaviour;
    return this;
  }

  public synchronized List<EventRequest> events() {
    return List.copyOf(events);
  }

  public synchronized List<DrainRequest> drainRequests() {
    return List.copyOf(drainRequests);
  }

  @Override
  public void taintDisrupted(NodeRef request) {
    journal.record("taintDisrupted", request.nodeName());
  }

  @Override
  public void untaintDisrupted(NodeRef request) {
    journal.record("untaintDisrupted", request.nodeName());
  }

  @Override
  public Boolean cordon(NodeRef request) {
    journal.record("cordon", request.nodeName());
    return !cordonedByOperator;
  }

  /** Nodes arrive cordoned by an operator: cordon changes nothing and says so. */
  public FakeNodeActivities cordonedByOperator() {
    cordonedByOperator = true;
    return this;
  }

  @Override
  public void uncordon(NodeRef request) {
    journal.record("uncordon", request.nodeName());
  }

  @Override
  public DrainStatus drainStep(DrainRequest request) {
    synchronized (this) {
      drainRequests.add(request);
    }
    journal.record("drainStep", request.nodeName(), request.bypassPdb() ? "bypassPdb" : "evict");
    return drainStep.apply(request);
  }

  @Override
  public void markAborted(NodeRef request) {
    journal.record("markAborted", request.nodeName());
  }

  @Override
  public void recordEvent(EventRequest request) {
    synchronized (this) {
      events.add(request);
    }
    journal.record("recordEvent", request.reason(), request.name());
  }
}

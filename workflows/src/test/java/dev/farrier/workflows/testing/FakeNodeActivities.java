package dev.farrier.workflows.testing;

import dev.farrier.workflows.EventReasons;
import dev.farrier.workflows.activities.DrainRequest;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.EventRequest;
import dev.farrier.workflows.activities.NodeActivities;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.activities.RecordEventsRequest;
import dev.farrier.workflows.activities.SurgeAnswers;
import dev.farrier.workflows.activities.SurgeOutcome;
import dev.farrier.workflows.activities.SurgePass;
import dev.farrier.workflows.activities.SurgeRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A hand-written NodeActivities. Drains succeed in one pass unless a test scripts {@link #onDrainStep}; Events, those
 * the steps record and those recorded on their own, are kept for assertions ({@link #events()}) and journaled as
 * {@code recordEvent <reason> <name>} after the step.
 */
public class FakeNodeActivities implements NodeActivities {
  private volatile boolean cordonedByOperator;
  private final CallJournal journal;
  private final List<DrainRequest> drainRequests = new ArrayList<>();
  private volatile Function<DrainRequest, DrainStatus> drainStep = r -> drained(List.of());
  private final List<SurgeRequest> surgeRequests = new ArrayList<>();
  private volatile Function<SurgeRequest, SurgeOutcome> surge =
      r -> new SurgeOutcome(r.pod(), null, SurgeOutcome.Result.NOT_APPLICABLE, "not scripted");

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

  public FakeNodeActivities onSurge(Function<SurgeRequest, SurgeOutcome> behaviour) {
    this.surge = behaviour;
    return this;
  }

  public synchronized List<SurgeRequest> surgeRequests() {
    return List.copyOf(surgeRequests);
  }

  /** One call a pass: each pod's request is kept and answered by the {@link #onSurge} behaviour. */
  @Override
  public SurgeAnswers surge(SurgePass pass) {
    synchronized (this) {
      surgeRequests.addAll(pass.pods());
    }
    journal.record("surge", String.join(",", pass.pods().stream().map(SurgeRequest::pod).toList()));
    return new SurgeAnswers(pass.pods().stream().map(surge).toList());
  }

  /** Every Event recorded so far, by any fake sharing the journal. */
  public List<EventRequest> events() {
    return journal.events();
  }

  public synchronized List<DrainRequest> drainRequests() {
    return List.copyOf(drainRequests);
  }

  @Override
  public void taintDisrupted(NodeRef request) {
    journal.record("taintDisrupted", request.nodeName());
    request.events().forEach(journal::event);
  }

  @Override
  public void untaintDisrupted(NodeRef request) {
    journal.record("untaintDisrupted", request.nodeName());
    request.events().forEach(journal::event);
  }

  @Override
  public Boolean cordon(NodeRef request) {
    journal.record("cordon", request.nodeName());
    request.events().forEach(journal::event);
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
    request.events().forEach(journal::event);
  }

  @Override
  public DrainStatus drainStep(DrainRequest request) {
    synchronized (this) {
      drainRequests.add(request);
    }
    journal.record("drainStep", request.nodeName(), request.bypassPdb() ? "bypassPdb" : "evict");
    DrainStatus status = drainStep.apply(request);
    if (request.recordEvictions()) {
      status.evicted().forEach(pod -> journal.event(new EventRequest(request.cluster(), EventReasons.KIND_NODE, request.nodeName(),
          EventReasons.NORMAL, EventReasons.EVICTED, EventReasons.evicted(pod, request.instanceGone()))));
    }
    return status;
  }

  @Override
  public void markAborted(NodeRef request) {
    journal.record("markAborted", request.nodeName());
    request.events().forEach(journal::event);
  }

  @Override
  public void recordEvents(RecordEventsRequest request) {
    request.events().forEach(journal::event);
  }
}

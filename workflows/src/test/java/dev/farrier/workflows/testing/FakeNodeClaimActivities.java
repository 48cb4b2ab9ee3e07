package dev.farrier.workflows.testing;

import dev.farrier.workflows.EventReasons;
import dev.farrier.workflows.activities.AwaitNodeRequest;
import dev.farrier.workflows.activities.EventRequest;
import dev.farrier.workflows.activities.InstanceState;
import dev.farrier.workflows.activities.NodeClaimActivities;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.activities.RegistrationFailure;
import dev.farrier.workflows.activities.TerminateInstanceRequest;
import dev.farrier.model.LaunchedInstance;
import dev.farrier.model.NodeClaimRequest;
import io.temporal.failure.ApplicationFailure;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A hand-written NodeClaimActivities: every call is journaled, and each step does the happy thing unless a test
 * replaces it ({@code onLaunchInstance(ref -> { throw ... })}). Instance ids are {@code i-<claim>}, node names
 * {@code node-<claim>}. A step that succeeds journals the Events it was asked to record after it. The merged steps
 * are journaled as the steps they do ({@code terminateInstanceAndWait} as {@code terminateInstance} then
 * {@code awaitInstanceTerminated}, {@code deleteNodeAndClaim} as {@code deleteNode} then {@code deleteNodeClaim}), so
 * the journal reads the same whether a workflow calls the merged step (a replacement) or the two (the launch's saga);
 * its history tells them apart.
 */
public class FakeNodeClaimActivities implements NodeClaimActivities {
  private final CallJournal journal;
  private volatile Consumer<TerminateInstanceRequest> awaitInstanceTerminated = r -> {};
  private volatile Function<TerminateInstanceRequest, InstanceState> instanceState = r -> new InstanceState(r.instanceId(), "running");
  private volatile Function<NodeClaimRef, LaunchedInstance> launchInstance = FakeNodeClaimActivities::launched;
  private volatile Function<AwaitNodeRequest, String> awaitRegistered = r -> nodeNameOf(r.nodeClaim());
  private volatile Consumer<AwaitNodeRequest> awaitInitialized = r -> {};
  private volatile Consumer<NodeClaimRequest> createNodeClaim = r -> {};
  private volatile Consumer<AwaitNodeRequest> registerNode = r -> {};

  public FakeNodeClaimActivities(CallJournal journal) {
    this.journal = journal;
  }

  public static LaunchedInstance launched(NodeClaimRef ref) {
    return new LaunchedInstance(ref.nodeClaim(), instanceIdOf(ref.nodeClaim()), "aws:///us-west-2a/" + instanceIdOf(ref.nodeClaim()),
        "m5.large", "us-west-2a", "on-demand", "ami-0123456789abcdef0", 0.096);
  }

  public static String instanceIdOf(String nodeClaim) {
    return "i-" + nodeClaim;
  }

  public static String nodeNameOf(String nodeClaim) {
    return "node-" + nodeClaim;
  }

  /** A retryable failure the await fakes throw to say "not yet" (retry-policy polling, skipped through in tests). */
  public static ApplicationFailure notYet(String what) {
    return ApplicationFailure.newFailure(what + " not yet", "NotYet");
  }

  public FakeNodeClaimActivities onCreateNodeClaim(Consumer<NodeClaimRequest> behaviour) {
    this.createNodeClaim = behaviour;
    return this;
  }

  public FakeNodeClaimActivities onLaunchInstance(Function<NodeClaimRef, LaunchedInstance> behaviour) {
    this.launchInstance = behaviour;
    return this;
  }

  public FakeNodeClaimActivities onAwaitRegistered(Function<AwaitNodeRequest, String> behaviour) {
    this.awaitRegistered = behaviour;
    return this;
  }

  /** What {@link #instanceState} answers (running unless set). */
  public FakeNodeClaimActivities onInstanceState(Function<TerminateInstanceRequest, InstanceState> behaviour) {
    this.instanceState = behaviour;
    return this;
  }

  public FakeNodeClaimActivities onAwaitInstanceTerminated(Consumer<TerminateInstanceRequest> behaviour) {
    this.awaitInstanceTerminated = behaviour;
    return this;
  }

  public FakeNodeClaimActivities onRegisterNode(Consumer<AwaitNodeRequest> behaviour) {
    this.registerNode = behaviour;
    return this;
  }

  public FakeNodeClaimActivities onAwaitInitialized(Consumer<AwaitNodeRequest> behaviour) {
    this.awaitInitialized = behaviour;
    return this;
  }

  @Override
  public void createNodeClaim(NodeClaimRequest request) {
    journal.record("createNodeClaim", request.name());
    createNodeClaim.accept(request);
  }

  @Override
  public LaunchedInstance launchInstance(NodeClaimRef request) {
    journal.record("launchInstance", request.nodeClaim());
    LaunchedInstance instance = launchInstance.apply(request);
    if (request.recordLaunched()) {
      journal.event(new EventRequest(request.cluster(), EventReasons.KIND_NODE_CLAIM, request.nodeClaim(), EventReasons.NORMAL,
          EventReasons.LAUNCHED, EventReasons.launched(instance)));
    }
    return instance;
  }

  @Override
  public String awaitRegistered(AwaitNodeRequest request) {
    journal.record("awaitRegistered", request.nodeClaim());
    String nodeName = awaitRegistered.apply(request);
    request.events().forEach(journal::event);
    return nodeName;
  }

  @Override
  public void registerNode(AwaitNodeRequest request) {
    journal.record("registerNode", request.nodeClaim(), request.nodeName());
    registerNode.accept(request);
    request.events().forEach(journal::event);
  }

  @Override
  public void recordRegistrationFailure(RegistrationFailure failure) {
    journal.record("recordRegistrationFailure", failure.nodeClaim(), failure.reason());
  }

  @Override
  public void awaitInitialized(AwaitNodeRequest request) {
    journal.record("awaitInitialized", request.nodeClaim());
    awaitInitialized.accept(request);
    request.events().forEach(journal::event);
  }

  @Override
  public InstanceState terminateInstance(TerminateInstanceRequest request) {
    journal.record("terminateInstance", request.nodeClaim(), request.instanceId());
    request.events().forEach(journal::event);
    return new InstanceState(request.instanceId(), "shutting-down");
  }

  @Override
  public InstanceState terminateInstanceAndWait(TerminateInstanceRequest request) {
    journal.record("terminateInstance", request.nodeClaim(), request.instanceId());
    journal.record("awaitInstanceTerminated", request.nodeClaim(), request.instanceId());
    awaitInstanceTerminated.accept(request);
    request.events().forEach(journal::event);
    return new InstanceState(request.instanceId(), "terminated");
  }

  @Override
  public InstanceState instanceState(TerminateInstanceRequest request) {
    journal.record("instanceState", request.nodeClaim(), request.instanceId());
    return instanceState.apply(request);
  }

  @Override
  public InstanceState awaitInstanceTerminated(TerminateInstanceRequest request) {
    journal.record("awaitInstanceTerminated", request.nodeClaim(), request.instanceId());
    awaitInstanceTerminated.accept(request);
    request.events().forEach(journal::event);
    return new InstanceState(request.instanceId(), "terminated");
  }

  @Override
  public void deleteNode(NodeRef request) {
    journal.record("deleteNode", request.nodeName());
    request.events().forEach(journal::event);
  }

  @Override
  public void deleteNodeClaim(NodeClaimRef request) {
    journal.record("deleteNodeClaim", request.nodeClaim());
  }

  @Override
  public void deleteNodeAndClaim(NodeRef request) {
    if (request.nodeName() != null) {
      journal.record("deleteNode", request.nodeName());
    }
    journal.record("deleteNodeClaim", request.nodeClaim());
    request.events().forEach(journal::event);
  }
}

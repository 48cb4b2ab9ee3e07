package dev.farrier.activities.interruption;

import dev.farrier.activities.cloud.Ownership;
import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.interruption.EventBridgeParser;
import dev.farrier.activities.interruption.InterruptionCounters;
import dev.farrier.activities.interruption.InterruptionMessage;
import dev.farrier.activities.interruption.SqsInterruptionQueue.QueueMessage;
import dev.farrier.activities.interruption.SqsInterruptionQueue;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.activities.kube.NodeWriter;
import dev.farrier.activities.kube.PodEvictor;
import dev.farrier.activities.kube.ObjectNotFoundException;
import dev.farrier.activities.views.PodViews;
import dev.farrier.activities.views.ProviderIds;
import dev.farrier.workflows.activities.DeleteMessagesRequest;
import dev.farrier.workflows.activities.DeletedMessages;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.workflows.activities.InterruptionActivities;
import dev.farrier.workflows.activities.InterruptionNotice;
import dev.farrier.workflows.activities.InterruptionTarget;
import dev.farrier.workflows.activities.MarkUnavailableRequest;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.activities.ReceiveInterruptionsRequest;
import dev.farrier.workflows.activities.ReceivedInterruptions;
import dev.farrier.workflows.activities.ResolveInterruptionRequest;
import dev.farrier.workflows.activities.ResolvedInterruption;
import dev.farrier.model.WellKnown;
import dev.farrier.model.GoDurations;
import io.fabric8.kubernetes.api.model.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.sqs.SqsClient;

/** The interruption queue on SQS, and NodeClaims, Nodes and NodePools read from the {@link Cluster}. */
public class InterruptionActivitiesImpl implements InterruptionActivities {
  private static final Logger log = LoggerFactory.getLogger(InterruptionActivitiesImpl.class);
  private static final int BODY_SHOWN = 200;

  private final ClusterReader reader;
  private final NodeClaimStore claims;
  private final NodeWriter nodes;
  private final PodEvictor pods;
  private final CloudProvider cloud;
  private final InterruptionCounters counters;
  private final Function<String, SqsInterruptionQueue> queueFactory;
  private final Map<String, SqsInterruptionQueue> queues = new ConcurrentHashMap<>();
  private final BooleanSupplier stopping;

  /**
   * {@code stopping} says the worker is shutting down and has cut the queue's connections: a receive that fails then
   * returns nothing instead of failing (see {@link #receive}).
   */
  public <C extends ClusterReader & NodeClaimStore & NodeWriter & PodEvictor> InterruptionActivitiesImpl(SqsClient sqs,
      C cluster, CloudProvider cloud, InterruptionCounters counters, BooleanSupplier stopping) {
    this(queue -> new SqsInterruptionQueue(sqs, queue), cluster, cloud, counters, stopping);
  }

  /** With the queue of each URL from {@code queueFactory} (the tests' own SQS endpoint). */
  public <C extends ClusterReader & NodeClaimStore & NodeWriter & PodEvictor> InterruptionActivitiesImpl(
      Function<String, SqsInterruptionQueue> queueFactory, C cluster, CloudProvider cloud, InterruptionCounters counters,
      BooleanSupplier stopping) {
    this.queueFactory = queueFactory;
    this.stopping = stopping;
    this.reader = cluster;
    this.claims = cluster;
    this.nodes = cluster;
    this.pods = cluster;
    this.cloud = cloud;
    this.counters = counters;
  }

  private SqsInterruptionQueue queue(String queue) {
    return queues.computeIfAbsent(queue, queueFactory);
  }

  /**
   * One long poll. When the worker shuts down it cuts the queue's connections rather than wait up to 20 s for an idle
   * poll to end; the receive then returns nothing, so the workflow's next receive runs on another worker at once. A
   * message SQS had handed to the cut poll is not lost: it is visible again after the queue's visibility timeout.
   */
  @Override
  public ReceivedInterruptions receive(ReceiveInterruptionsRequest request) {
    SqsInterruptionQueue queue = queue(request.queue());
    List<QueueMessage> messages;
    try {
      messages = queue.receive();
    } catch (RuntimeException e) { // an SdkException, or the SDK's retry finding the connection pool shut down
      if (!stopping.getAsBoolean()) {
        throw e;
      }
      log.info("interruption receive cut short by the worker's shutdown queue={} cause={}", request.queue(), e.toString());
      return new ReceivedInterruptions(List.of(), 0, 0);
    }
    List<InterruptionNotice> notices = new ArrayList<>();
    List<String> done = new ArrayList<>();
    int malformed = 0;
    int ignored = 0;
    for (QueueMessage message : messages) {
      switch (EventBridgeParser.parse(message.body())) {
        case InterruptionMessage.Notice n -> {
          counters.notice(n.kind(), n.time());
          notices.add(new InterruptionNotice(n.kind(), n.instanceIds(), n.time().toEpochMilli(), n.detail(),
              message.messageId(), message.receiptHandle()));
        }
        case InterruptionMessage.Ignored i -> {
          counters.ignored();
          ignored++;
          done.add(message.receiptHandle());
          log.info("interruption message needs nothing, deleted message={} why={}", message.messageId(), i.why());
        }
        case InterruptionMessage.Malformed m -> {
          long total = counters.malformed();
          malformed++;
          done.add(message.receiptHandle());
          log.warn("interruption message malformed, deleted message={} why={} malformedTotal={} body={}",
              message.messageId(), m.why(), total, abbreviate(message.body()));
        }
      }
    }
    if (!done.isEmpty()) {
      var outcome = queue.delete(done);
      counters.deleted(outcome.deleted(), outcome.failures().size());
      if (!outcome.failures().isEmpty()) {
        log.warn("interruption messages not deleted, they come back queue={} failures={}", request.queue(), outcome.failures());
      }
    }
    return new ReceivedInterruptions(notices, malformed, ignored);
  }

  /**
   * Only claims Farrier launched are targets: another controller's instance is never drained or replaced. Nor is a
   * claim already being deleted: its instance goes away on purpose (its own termination, a finished replacement,
   * {@code kubectl delete}), and the state-change events that termination causes must not start a replacement of it
   * under the same {@code disrupt/<nodeclaim>} id once the first one has closed.
   */
  @Override
  public ResolvedInterruption resolve(ResolveInterruptionRequest request) {
    List<NodeClaim> claims = this.claims.listNodeClaims();
    List<InterruptionTarget> targets = new ArrayList<>();
    for (String instanceId : request.instanceIds()) {
      Optional<NodeClaim> claim = claims.stream()
          .filter(c -> c.getStatus() != null && instanceId.equals(ProviderIds.instanceId(c.getStatus().providerID())))
          .findFirst();
      if (claim.isEmpty() || !Ownership.launchedByFarrier(claim.get())) {
        log.info("interrupted instance has no Farrier NodeClaim instance={} kind={} claim={}", instanceId, request.kind(),
            claim.map(c -> c.getMetadata().getName()).orElse(null));
        targets.add(new InterruptionTarget(instanceId, null, false, null));
        continue;
      }
      if (claim.get().getMetadata().getDeletionTimestamp() != null) {
        log.info("interrupted instance's NodeClaim is already being deleted, nothing to replace instance={} kind={} claim={}",
            instanceId, request.kind(), claim.get().getMetadata().getName());
        targets.add(new InterruptionTarget(instanceId, null, false, null));
        continue;
      }
      targets.add(target(request, instanceId, claim.get()));
    }
    return new ResolvedInterruption(targets);
  }

  private InterruptionTarget target(ResolveInterruptionRequest request, String instanceId, NodeClaim claim) {
    String name = claim.getMetadata().getName();
    String nodeName = claim.getStatus().nodeName();
    Optional<Node> node = nodeName == null ? Optional.empty() : reader.getNode(nodeName);
    Map<String, String> labels = new java.util.HashMap<>(claim.getMetadata().getLabels() == null ? Map.of() : claim.getMetadata().getLabels());
    node.map(n -> n.getMetadata().getLabels()).ifPresent(labels::putAll);
    String nodePool = labels.get(WellKnown.NODEPOOL_LABEL);
    boolean optIn = nodePool != null && reader.getNodePool(nodePool)
        .map(p -> p.getMetadata().getAnnotations() == null ? null : p.getMetadata().getAnnotations().get(WellKnown.REBALANCE_REPLACEMENT_ANNOTATION))
        .map("true"::equals).orElse(false);
    int pods = node.isEmpty() ? 0 : (int) this.pods.listPodsOnNode(nodeName).stream().filter(p -> !PodViews.terminal(p)).count();
    Long grace = GoDurations.toMillis(claim.getSpec().terminationGracePeriod());
    var command = new DisruptionCommand(name, node.isPresent() ? nodeName : null, nodePool, instanceId, DisruptionMethod.REPLACE,
        request.kind().name(), request.detail(), pods, grace == null ? null : grace / 1000,
        labels.get(WellKnown.INSTANCE_TYPE_LABEL), labels.get(WellKnown.CAPACITY_TYPE_LABEL));
    return new InterruptionTarget(instanceId, command, optIn, labels.get(WellKnown.ZONE_LABEL));
  }

  @Override
  public void markUnavailable(MarkUnavailableRequest request) {
    cloud.markUnavailable(request.instanceType(), request.zone(), request.capacityType(), request.reason());
  }

  @Override
  public void markRebalanceRecommended(NodeRef request) {
    try {
      nodes.patchNodeMetadata(request.nodeName(), Map.of(),
          Map.of(WellKnown.REBALANCE_RECOMMENDED_ANNOTATION, java.time.Instant.now().toString()));
      log.info("node marked for rebalancing node={} nodeclaim={}", request.nodeName(), request.nodeClaim());
    } catch (ObjectNotFoundException e) {
      log.info("node gone before it could be marked for rebalancing node={} nodeclaim={}", request.nodeName(), request.nodeClaim());
    }
  }

  @Override
  public DeletedMessages deleteMessages(DeleteMessagesRequest request) {
    var outcome = queue(request.queue()).delete(request.receiptHandles());
    counters.deleted(outcome.deleted(), outcome.failures().size());
    return new DeletedMessages(outcome.deleted(), outcome.failures());
  }

  public InterruptionCounters counters() {
    return counters;
  }

  private static String abbreviate(String body) {
    if (body == null) {
      return "";
    }
    String oneLine = body.replaceAll("\\s+", " ");
    return oneLine.length() <= BODY_SHOWN ? oneLine : oneLine.substring(0, BODY_SHOWN) + "...";
  }
}

package dev.farrier.activities.kube;

import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeOverlay;
import dev.farrier.activities.crd.NodePool;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.Map;

/**
 * {@link EventSink} on the fabric8 client: writes core/v1 Events about Nodes and NodeClaims, and about pods. Events of
 * cluster-scoped objects live in {@code default}, and carry the object's UID so {@code kubectl describe} shows them.
 * An Event's name derives from its object, reason and message, so a retry or a repeat bumps the stored Event's count
 * instead of creating another.
 */
final class EventRecorder implements EventSink {
  static final String COMPONENT = "farrier";
  static final String NAMESPACE = "default";
  private static final int MAX_MESSAGE = 1024;
  private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(ZoneOffset.UTC);

  private final KubernetesClient client;
  private final CachedObjects cache;
  private final Clock clock;
  private final String instance;

  EventRecorder(KubernetesClient client, CachedObjects cache, Clock clock, String instance) {
    this.client = client;
    this.cache = cache;
    this.clock = clock;
    this.instance = instance;
  }

  @Override
  public void recordEvent(ClusterEvent event) {
    Instant at = clock.instant();
    String now = at.truncatedTo(ChronoUnit.SECONDS).toString();
    String name = eventName(event);
    HasMetadata involved = involvedObject(event);
    Event created = build(NAMESPACE, name, new ObjectReferenceBuilder()
        .withApiVersion(involved == null ? apiVersionOf(event.kind()) : involved.getApiVersion())
        .withKind(event.kind())
        .withName(event.name())
        .withUid(involved == null ? null : involved.getMetadata().getUid())
        .build(), event.type(), event.reason(), event.message(), at);
    createOrBump(created, now, () -> { });
  }

  /**
   * Creates {@code created}; when it exists already (a retry or a repeat: same name), counts it instead of creating
   * another. Up to three calls (create, read, patch), {@code beat} before the second and the third, so a caller that
   * heartbeats per call never outlives its heartbeat.
   */
  private void createOrBump(Event created, String now, Runnable beat) {
    String namespace = created.getMetadata().getNamespace();
    String name = created.getMetadata().getName();
    try {
      client.v1().events().inNamespace(namespace).resource(created).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      beat.run();
      Event existing = client.v1().events().inNamespace(namespace).withName(name).get();
      if (existing == null) {
        throw new IllegalStateException("Event " + namespace + "/" + name + " existed at the create and is gone; a retry creates it");
      }
      beat.run();
      bumpCount(existing, now);
    }
  }

  private void bumpCount(Event existing, String now) {
    int count = existing.getCount() == null ? 1 : existing.getCount();
    String patch = client.getKubernetesSerialization().asJson(Map.of("count", count + 1, "lastTimestamp", now));
    // On the object read, not on the name: fabric8's patch of a name-only resource GETs the object first.
    client.v1().events().resource(existing).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
  }

  /**
   * Records an Event about {@code involved}, an object read from the API server (a Deployment, a Node): in its
   * namespace, or {@code default} for a cluster-scoped one. Named as {@link #recordEvent}'s, so a repeat bumps its count.
   */
  @Override
  public void recordObjectEvent(HasMetadata involved, String type, String reason, String message) {
    recordObjectEvent(involved, type, reason, message, () -> { });
  }

  /** As {@link #recordObjectEvent(HasMetadata, String, String, String)}, running {@code beat} between its calls. */
  void recordObjectEvent(HasMetadata involved, String type, String reason, String message, Runnable beat) {
    Instant at = clock.instant();
    String namespace = involved.getMetadata().getNamespace() == null ? NAMESPACE : involved.getMetadata().getNamespace();
    String name = involved.getMetadata().getName() + "." + hash(involved.getKind() + "\n" + namespace + "\n"
        + involved.getMetadata().getName() + "\n" + reason + "\n" + message);
    Event created = build(namespace, name, new ObjectReferenceBuilder()
        .withApiVersion(involved.getApiVersion())
        .withKind(involved.getKind())
        .withNamespace(involved.getMetadata().getNamespace())
        .withName(involved.getMetadata().getName())
        .withUid(involved.getMetadata().getUid())
        .build(), type, reason, message, at);
    createOrBump(created, at.truncatedTo(ChronoUnit.SECONDS).toString(), beat);
  }

  /**
   * Records the pod Event unless the same one (pod uid, reason, message) was last seen within {@code window}. The
   * stored Event is the dedupe record: its name is derived from that triple and its lastTimestamp says when it was
   * last counted, so a repeat every planning round costs one read, and a restarted worker does not repeat it either.
   * Returns whether it wrote.
   */
  @Override
  public boolean recordPodEvent(PodEvent event, Duration window) {
    Instant at = clock.instant();
    String now = at.truncatedTo(ChronoUnit.SECONDS).toString();
    String name = podEventName(event);
    Event existing = client.v1().events().inNamespace(event.namespace()).withName(name).get();
    if (existing != null) {
      String last = existing.getLastTimestamp();
      if (last != null && Instant.parse(last).isAfter(at.minus(window))) {
        return false;
      }
      bumpCount(existing, now);
      return true;
    }
    Event created = build(event.namespace(), name, new ObjectReferenceBuilder()
        .withApiVersion("v1").withKind("Pod").withNamespace(event.namespace()).withName(event.podName()).withUid(event.podUid())
        .build(), event.type(), event.reason(), event.message(), at);
    try {
      client.v1().events().inNamespace(event.namespace()).resource(created).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      // A concurrent or retried call created it a moment ago: that one counts.
      return false;
    }
    return true;
  }

  /** One Event as {@code kubectl describe} shows it; the message is cut to {@link #MAX_MESSAGE} characters. */
  private Event build(String namespace, String name, ObjectReference involved, String type, String reason, String message, Instant at) {
    String now = at.truncatedTo(ChronoUnit.SECONDS).toString();
    String text = message == null ? "" : message;
    return new EventBuilder()
        .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .withInvolvedObject(involved)
        .withType(type)
        .withReason(reason)
        .withMessage(text.length() > MAX_MESSAGE ? text.substring(0, MAX_MESSAGE) : text)
        .withFirstTimestamp(now)
        .withLastTimestamp(now)
        // first/lastTimestamp keep whole seconds; eventTime keeps microseconds so steps within a second stay in order.
        .withEventTime(new MicroTime(MICRO_TIME.format(at)))
        .withAction(reason)
        .withCount(1)
        .withNewSource().withComponent(COMPONENT).endSource()
        .withReportingComponent(COMPONENT)
        .withReportingInstance(instance)
        .build();
  }

  /** {@code <pod>.<hash of uid, reason, message>}. */
  static String podEventName(PodEvent event) {
    return event.podName() + "." + hash(event.podUid() + "\n" + event.reason() + "\n" + event.message());
  }

  /** The object an Event is about, for its UID: the informers' copy when they hold one, else a live read. */
  private HasMetadata involvedObject(ClusterEvent event) {
    Class<? extends HasMetadata> type = switch (event.kind()) {
      case "Node" -> Node.class;
      case NodeClaim.KIND -> NodeClaim.class;
      case NodePool.KIND -> NodePool.class;
      case EC2NodeClass.KIND -> EC2NodeClass.class;
      case NodeOverlay.KIND -> NodeOverlay.class;
      default -> null;
    };
    if (type == null) {
      return null;
    }
    HasMetadata cached = cache.peek(type, event.name());
    return cached != null ? cached : client.resources(type).withName(event.name()).get();
  }

  private static String apiVersionOf(String kind) {
    return switch (kind) {
      case NodeClaim.KIND, NodePool.KIND -> "karpenter.sh/v1";
      case EC2NodeClass.KIND -> "karpenter.k8s.aws/v1";
      case NodeOverlay.KIND -> NodeOverlay.GROUP + "/" + NodeOverlay.VERSION;
      default -> "v1";
    };
  }

  /** {@code <object>.<hash of kind, object, reason, message>}: the same occurrence always has the same name. */
  static String eventName(ClusterEvent event) {
    return event.name() + "." + hash(event.kind() + "\n" + event.name() + "\n" + event.reason() + "\n" + event.message());
  }

  /** The first 8 bytes of SHA-256, hex: short enough for a name, wide enough never to collide in practice. */
  private static String hash(String key) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)), 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}

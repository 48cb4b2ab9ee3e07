package dev.farrier.activities.split;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.CapacitySplit;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@link SplitWrites} on a fabric8 client whose requests are bounded and not retried (the caller builds it so:
 * {@code CapacitySplitLoop}).
 */
public final class Fabric8SplitWrites implements SplitWrites {
  private static final String COMPONENT = "farrier";
  private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(ZoneOffset.UTC);

  /** Jackson's defaults: a null in a map is written, which a merge patch reads as "remove". */
  private static final ObjectMapper JSON = new ObjectMapper();

  private final KubernetesClient client;
  private final Clock clock;

  public Fabric8SplitWrites(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  @Override
  public boolean ungate(Pod pod, boolean pin) {
    List<PodSchedulingGate> gates = pod.getSpec().getSchedulingGates() == null ? List.of() : pod.getSpec().getSchedulingGates();
    List<Map<String, String>> remaining = gates.stream().filter(g -> !CapacitySplit.GATE.equals(g.getName()))
        .map(g -> Map.of("name", g.getName())).toList();
    Map<String, Object> spec = new LinkedHashMap<>();
    // A merge patch replaces the list: the resourceVersion precondition keeps a gate added meanwhile from being lost.
    spec.put("schedulingGates", remaining.isEmpty() ? null : remaining);
    if (pin) {
      spec.put("nodeSelector", Map.of(WellKnown.CAPACITY_TYPE_LABEL, WellKnown.CAPACITY_ON_DEMAND));
    }
    Map<String, Object> patch = Map.of("metadata", Map.of("resourceVersion", pod.getMetadata().getResourceVersion()), "spec", spec);
    try {
      client.pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod)
          .patch(PatchContext.of(PatchType.JSON_MERGE), JSON.writeValueAsString(patch));
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_CONFLICT || e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return false;
      }
      throw e;
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a map of strings always serializes", e);
    }
  }

  @Override
  public void recordEvent(SplitWorkload workload, String type, String reason, String message) {
    Instant at = clock.instant();
    String now = at.truncatedTo(ChronoUnit.SECONDS).toString();
    String key = workload.kind() + "\n" + workload.name() + "\n" + reason + "\n" + message;
    String name = workload.name() + "." + UUID.nameUUIDFromBytes(key.getBytes(StandardCharsets.UTF_8)).toString().replace("-", "").substring(0, 16);
    var events = client.v1().events().inNamespace(workload.namespace());
    var event = new EventBuilder()
        .withNewMetadata().withName(name).withNamespace(workload.namespace()).endMetadata()
        .withNewInvolvedObject().withApiVersion("apps/v1").withKind(workload.kind()).withNamespace(workload.namespace())
        .withName(workload.name()).withUid(workload.uid()).endInvolvedObject()
        .withType(type).withReason(reason).withMessage(message.length() > 1024 ? message.substring(0, 1024) : message)
        .withFirstTimestamp(now).withLastTimestamp(now).withEventTime(new MicroTime(MICRO_TIME.format(at)))
        .withAction(reason).withCount(1)
        .withNewSource().withComponent(COMPONENT).endSource().withReportingComponent(COMPONENT).withReportingInstance(COMPONENT)
        .build();
    try {
      events.resource(event).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      var existing = events.withName(name).get();
      if (existing != null) {
        int count = existing.getCount() == null ? 1 : existing.getCount();
        events.resource(existing).patch(PatchContext.of(PatchType.JSON_MERGE),
            client.getKubernetesSerialization().asJson(Map.of("count", count + 1, "lastTimestamp", now)));
      }
    }
  }
}

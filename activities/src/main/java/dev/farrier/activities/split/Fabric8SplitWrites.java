package dev.farrier.activities.split;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.CapacitySplit;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link SplitWrites} on a fabric8 client whose requests are bounded and not retried (the caller builds it so:
 * {@code CapacitySplitLoop}).
 */
public final class Fabric8SplitWrites implements SplitWrites {
  /** Jackson's defaults: a null in a map is written, which a merge patch reads as "remove". */
  private static final ObjectMapper JSON = new ObjectMapper();

  private final KubernetesClient client;

  public Fabric8SplitWrites(KubernetesClient client) {
    this.client = client;
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
}

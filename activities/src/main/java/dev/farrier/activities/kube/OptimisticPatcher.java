package dev.farrier.activities.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.EditReplacePatchable;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.HttpURLConnection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Read-modify-write as a JSON merge patch carrying the read {@code resourceVersion}: the API server rejects the
 * patch with 409 when the object changed since the read, and the change is recomputed from a fresh read. That is
 * what makes list edits (finalizers, taints, conditions) safe next to other writers: a merge patch replaces a list
 * whole, so without the precondition it could drop an entry written in between.
 */
final class OptimisticPatcher {
  static final int MAX_ATTEMPTS = 8;

  private final KubernetesSerialization serialization;

  OptimisticPatcher(KubernetesSerialization serialization) {
    this.serialization = serialization;
  }

  /** What a read-modify-write did: {@code object} is null when the object does not exist. */
  record Outcome<T>(T object, boolean changed) {
    boolean found() {
      return object != null;
    }
  }

  /**
   * Reads the object, asks {@code change} for the merge patch that brings it to the target state (null when it is
   * there already: nothing is sent) and applies it, to the status subresource when {@code status}.
   */
  <T extends HasMetadata> Outcome<T> apply(Resource<T> resource, boolean status, Function<T, Map<String, Object>> change) {
    for (int attempt = 1; ; attempt++) {
      T current = resource.get();
      if (current == null) {
        return new Outcome<>(null, false);
      }
      Map<String, Object> patch = change.apply(current);
      if (patch == null) {
        return new Outcome<>(current, false);
      }
      Map<String, Object> body = new LinkedHashMap<>(patch);
      @SuppressWarnings("unchecked")
      Map<String, Object> metadata = new LinkedHashMap<>((Map<String, Object>) body.getOrDefault("metadata", Map.of()));
      metadata.put("resourceVersion", current.getMetadata().getResourceVersion());
      body.put("metadata", metadata);
      EditReplacePatchable<T> target = status ? resource.subresource("status") : resource;
      try {
        return new Outcome<>(target.patch(PatchContext.of(PatchType.JSON_MERGE), serialization.asJson(body)), true);
      } catch (KubernetesClientException e) {
        if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
          return new Outcome<>(null, false);
        }
        if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt >= MAX_ATTEMPTS) {
          throw e;
        }
      }
    }
  }
}

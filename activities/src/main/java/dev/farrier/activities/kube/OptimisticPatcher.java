package dev.farrier.activities.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
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
 *
 * <p>The first read is the informers' copy when there is one ({@link CachedObjects}), and the patch goes to the object
 * read, not to its name (fabric8 GETs a resource named only by its name before patching it): a write whose copy is
 * current costs one request, where it cost three (a GET, fabric8's GET, the PATCH). The precondition makes a stale
 * copy harmless (409, then a live read), and a copy that says there is nothing to change is confirmed by a live read
 * before the write is called done, because a stale copy may lack what another writer added since.
 */
final class OptimisticPatcher {
  static final int MAX_ATTEMPTS = 8;

  private final KubernetesClient client;
  private final KubernetesSerialization serialization;
  private final CachedObjects cache;

  OptimisticPatcher(KubernetesClient client, CachedObjects cache) {
    this.client = client;
    this.serialization = client.getKubernetesSerialization();
    this.cache = cache;
  }

  /** What a read-modify-write did: {@code object} is null when the object does not exist. */
  record Outcome<T>(T object, boolean changed) {
    boolean found() {
      return object != null;
    }
  }

  /**
   * Reads the cluster-scoped object {@code type}/{@code name}, asks {@code change} for the merge patch that brings it
   * to the target state (null when it is there already: nothing is sent) and applies it, to the status subresource
   * when {@code status}. {@code change} must not modify the object it is given (it may be the cache's).
   */
  <T extends HasMetadata> Outcome<T> apply(Class<T> type, String name, boolean status, Function<T, Map<String, Object>> change) {
    Resource<T> resource = client.resources(type).withName(name);
    T current = cache.peek(type, name);
    boolean cached = current != null;
    for (int conflicts = 0; ; ) {
      if (!cached) {
        current = resource.get();
        if (current == null) {
          return new Outcome<>(null, false);
        }
      }
      Map<String, Object> patch = change.apply(current);
      if (patch == null) {
        if (cached) {
          cached = false; // the copy may be stale: only a live read can say there is nothing to do
          continue;
        }
        return new Outcome<>(current, false);
      }
      cached = false;
      Map<String, Object> body = new LinkedHashMap<>(patch);
      @SuppressWarnings("unchecked")
      Map<String, Object> metadata = new LinkedHashMap<>((Map<String, Object>) body.getOrDefault("metadata", Map.of()));
      metadata.put("resourceVersion", current.getMetadata().getResourceVersion());
      body.put("metadata", metadata);
      // On the object read, not on the name: fabric8's patch of a name-only resource GETs the object first.
      Resource<T> read = client.resources(type).resource(current);
      EditReplacePatchable<T> target = status ? read.subresource("status") : read;
      try {
        return new Outcome<>(target.patch(PatchContext.of(PatchType.JSON_MERGE), serialization.asJson(body)), true);
      } catch (KubernetesClientException e) {
        if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
          return new Outcome<>(null, false);
        }
        if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || ++conflicts >= MAX_ATTEMPTS) {
          throw e;
        }
      }
    }
  }
}

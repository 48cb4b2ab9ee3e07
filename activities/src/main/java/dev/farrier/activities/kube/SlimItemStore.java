package dev.farrier.activities.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * The informers' store: each object as the watch delivered it, less what no reader of the cache looks at and what makes
 * up much of its size: {@code metadata.managedFields} (a tree of maps per object, the larger part of a pod in memory)
 * and a Node's {@code status.images} (up to 50 images with their names on a real node). A write may start from a
 * cached object ({@link OptimisticPatcher}), but its merge patch carries only what the change computes (labels,
 * annotations, finalizers, taints, a CRD's status), never a field stripped here, so nothing stripped is written back.
 */
final class SlimItemStore<T extends HasMetadata> extends BasicItemStore<T> {
  SlimItemStore() {
    super(Cache::metaNamespaceKeyFunc);
  }

  @Override
  public T put(String key, T item) {
    return super.put(key, slim(item));
  }

  static <T extends HasMetadata> T slim(T item) {
    if (item.getMetadata() != null) {
      item.getMetadata().setManagedFields(null);
    }
    if (item instanceof Node node && node.getStatus() != null) {
      node.getStatus().setImages(null);
    }
    return item;
  }
}

package dev.farrier.activities.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Where a read-modify-write ({@link OptimisticPatcher}) takes its first base from: the informers' copy of a
 * cluster-scoped object. A current copy saves the write its GET; a stale one costs a 409 and then a live read, so it is
 * never written from. {@link #NONE} (no cache) makes every write read first.
 */
interface CachedObjects {
  /** No cache: every write starts from a live read. */
  CachedObjects NONE = new CachedObjects() {
    @Override
    public <T extends HasMetadata> T peek(Class<T> type, String name) {
      return null;
    }
  };

  /**
   * The cached object of this kind and name, read-only; null when the cache keeps no such kind, its informer is not
   * synced or not running, or it holds no such object. Never waits.
   */
  <T extends HasMetadata> T peek(Class<T> type, String name);
}

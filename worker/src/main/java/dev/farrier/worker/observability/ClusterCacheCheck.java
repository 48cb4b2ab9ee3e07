package dev.farrier.worker.observability;

import dev.farrier.activities.kube.ClusterCache;

/** The worker's informer cache has synced every kind it serves: until then its planning reads would only wait. */
public final class ClusterCacheCheck implements DependencyCheck {
  private final ClusterCache cache;

  public ClusterCacheCheck(ClusterCache cache) {
    this.cache = cache;
  }

  @Override
  public String name() {
    return "cluster-cache";
  }

  @Override
  public void check() {
    if (!cache.synced()) {
      throw new IllegalStateException("informers not synced: " + String.join(", ", cache.notSynced()));
    }
  }
}

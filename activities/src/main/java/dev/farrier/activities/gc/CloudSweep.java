package dev.farrier.activities.gc;

/** Deletes a cloud's own leftovers of one cluster (the AWS provider: unused launch templates). Idempotent. */
@FunctionalInterface
public interface CloudSweep {
  CloudSweep NONE = cluster -> {};

  void sweep(String cluster);
}

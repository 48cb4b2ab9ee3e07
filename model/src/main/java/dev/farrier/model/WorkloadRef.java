package dev.farrier.model;

/** The controller of moved pods: {@code kind} is the owner reference's (ReplicaSet, StatefulSet, Job, ...). */
public record WorkloadRef(String namespace, String kind, String name) {
  @Override
  public String toString() {
    return kind + " " + namespace + "/" + name;
  }
}

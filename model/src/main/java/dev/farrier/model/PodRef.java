package dev.farrier.model;

/** Names a pod: the informer signals these, activities read the pod itself. */
public record PodRef(String namespace, String name, String uid) {
  public String key() {
    return namespace + "/" + name;
  }
}

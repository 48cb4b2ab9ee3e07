package dev.farrier.activities.kube;

/**
 * A core/v1 Event about a cluster-scoped object Farrier manages.
 *
 * @param kind    {@code Node}, {@code NodeClaim}, {@code NodePool}, {@code EC2NodeClass} or {@code NodeOverlay}
 * @param type    {@code Normal} or {@code Warning}
 * @param reason  UpperCamelCase, e.g. {@code DisruptionBlocked}
 */
public record ClusterEvent(String kind, String name, String type, String reason, String message) {
  public static final String NORMAL = "Normal";
  public static final String WARNING = "Warning";
}

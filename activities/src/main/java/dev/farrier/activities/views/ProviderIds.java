package dev.farrier.activities.views;

/** {@code aws:///<zone>/<instance-id>} parsing. */
public final class ProviderIds {
  private ProviderIds() {}

  /** The instance id of an AWS provider id, or null when there is none. */
  public static String instanceId(String providerId) {
    if (providerId == null || providerId.isBlank()) {
      return null;
    }
    return providerId.substring(providerId.lastIndexOf('/') + 1);
  }
}

package dev.farrier.activities.cloud.aws.userdata;

/**
 * Custom: the user's user data exactly as written; Farrier adds nothing (the image knows how to join and, under
 * {@code instanceStorePolicy: RAID0}, how to set up its instance-store disks).
 */
final class CustomUserData implements UserDataFormat {
  @Override
  public String render(NodeBootstrap node) {
    return node.userData() == null ? "" : node.userData();
  }
}

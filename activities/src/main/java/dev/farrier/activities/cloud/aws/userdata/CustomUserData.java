package dev.farrier.activities.cloud.aws.userdata;

/** Custom: the user's user data exactly as written; Farrier adds nothing (the image knows how to join). */
final class CustomUserData implements UserDataFormat {
  @Override
  public String render(NodeBootstrap node) {
    return node.userData() == null ? "" : node.userData();
  }
}

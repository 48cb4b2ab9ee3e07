package dev.farrier.activities.cloud.aws;

/** Tags only the AWS provider writes (ownership is {@link dev.farrier.activities.cloud.Ownership}). */
final class FarrierTags {
  /** On every instance: the launch template it was launched from, so unused templates can be found. */
  static final String LAUNCH_TEMPLATE = "farrier.dev/launch-template";

  private FarrierTags() {}
}

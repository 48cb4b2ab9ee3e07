package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.CloudProviderException.Kind;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;

/** Maps SDK exceptions to the {@link CloudProviderException} taxonomy, by EC2 error code. */
final class Ec2Errors {
  /** Codes that mean "this instance does not exist (any more)". */
  static final Set<String> NOT_FOUND = Set.of("InvalidInstanceID.NotFound", "InvalidInstanceID.Malformed");
  /**
   * Transient by nature: besides throttling and server errors, a launch template deleted between its lookup and
   * CreateFleet (unused-template cleanup racing a launch); the retry makes it again.
   */
  static final Set<String> THROTTLED = Set.of("InvalidLaunchTemplateName.NotFoundException", "InvalidLaunchTemplateId.NotFound",
      "InvalidLaunchTemplateId.VersionNotFound","RequestLimitExceeded", "Throttling", "ThrottlingException",
      "ServiceUnavailable", "InternalError", "Unavailable");

  private Ec2Errors() {}

  static String code(SdkException e) {
    return e instanceof AwsServiceException service && service.awsErrorDetails() != null
        ? String.valueOf(service.awsErrorDetails().errorCode()) : "";
  }

  static boolean isNotFound(SdkException e) {
    return NOT_FOUND.contains(code(e));
  }

  /** Throttling, server errors and network failures retry; everything else is a request EC2 will keep refusing. */
  static CloudProviderException map(String action, SdkException e) {
    String code = code(e);
    boolean transientFailure = THROTTLED.contains(code) || e.retryable()
        || (e instanceof AwsServiceException service && service.statusCode() >= 500)
        || !(e instanceof AwsServiceException);
    Kind kind = NOT_FOUND.contains(code) ? Kind.NOT_FOUND : transientFailure ? Kind.THROTTLED : Kind.INVALID_REQUEST;
    return new CloudProviderException(kind, action + " failed: " + (code.isEmpty() ? "" : code + ": ") + e.getMessage());
  }
}

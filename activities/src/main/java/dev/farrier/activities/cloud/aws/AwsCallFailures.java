package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.CloudProviderException.Kind;
import software.amazon.awssdk.awscore.exception.AwsServiceException;

/**
 * Turns an AWS error of a read or IAM call into the cloud seam's typed failure, keeping AWS's code in the message.
 * Server errors (5xx) have no kind of their own: they are rethrown as they are, and the activity retries them as
 * any unexpected failure (the SDK has already retried them a few times).
 */
final class AwsCallFailures {
  private AwsCallFailures() {}

  static CloudProviderException translate(String what, AwsServiceException e) {
    String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
    String message = what + ": " + (code == null ? "" : code + ": ")
        + (e.awsErrorDetails() == null ? e.getMessage() : e.awsErrorDetails().errorMessage());
    if (e.isThrottlingException() || "RequestLimitExceeded".equals(code)) {
      return new CloudProviderException(Kind.THROTTLED, message);
    }
    if (e.statusCode() == 404 || (code != null && (code.startsWith("NoSuchEntity") || code.endsWith("NotFound")))) {
      return new CloudProviderException(Kind.NOT_FOUND, message);
    }
    if (e.statusCode() >= 400 && e.statusCode() < 500) {
      return new CloudProviderException(Kind.INVALID_REQUEST, message);
    }
    throw e;
  }
}

package dev.farrier.activities.cloud.aws;

import java.util.function.Consumer;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.CreateFleetRequest;
import software.amazon.awssdk.services.ec2.model.DescribeCapacityReservationsRequest;
import software.amazon.awssdk.services.ec2.model.DescribeCapacityReservationsResponse;
import software.amazon.awssdk.services.ec2.model.CreateFleetResponse;
import software.amazon.awssdk.services.ec2.model.CreateLaunchTemplateRequest;
import software.amazon.awssdk.services.ec2.model.CreateLaunchTemplateResponse;
import software.amazon.awssdk.services.ec2.model.DeleteLaunchTemplateRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceTypeOfferingsRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceTypeOfferingsResponse;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceTypesRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceTypesResponse;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesResponse;
import software.amazon.awssdk.services.ec2.model.DescribeLaunchTemplatesRequest;
import software.amazon.awssdk.services.ec2.model.DescribeLaunchTemplatesResponse;
import software.amazon.awssdk.services.ec2.model.DescribeSpotPriceHistoryRequest;
import software.amazon.awssdk.services.ec2.model.DescribeSpotPriceHistoryResponse;
import software.amazon.awssdk.services.ec2.model.TerminateInstancesRequest;
import software.amazon.awssdk.services.ec2.model.TerminateInstancesResponse;

/**
 * The EC2 calls the launch/terminate path makes, and nothing else (as karpenter-provider-aws's {@code pkg/aws/sdk.go}):
 * the IAM policy in {@code deploy/iam} lists exactly these, and a test can stand in for one call path without a
 * whole {@link Ec2Client}.
 */
public interface Ec2Api {
  DescribeInstancesResponse describeInstances(DescribeInstancesRequest request);

  CreateFleetResponse createFleet(CreateFleetRequest request);

  TerminateInstancesResponse terminateInstances(TerminateInstancesRequest request);

  DescribeLaunchTemplatesResponse describeLaunchTemplates(DescribeLaunchTemplatesRequest request);

  CreateLaunchTemplateResponse createLaunchTemplate(CreateLaunchTemplateRequest request);

  void deleteLaunchTemplate(DeleteLaunchTemplateRequest request);

  DescribeInstanceTypesResponse describeInstanceTypes(DescribeInstanceTypesRequest request);

  DescribeInstanceTypeOfferingsResponse describeInstanceTypeOfferings(DescribeInstanceTypeOfferingsRequest request);

  DescribeSpotPriceHistoryResponse describeSpotPriceHistory(DescribeSpotPriceHistoryRequest request);

  DescribeCapacityReservationsResponse describeCapacityReservations(DescribeCapacityReservationsRequest request);

  // Builder-style overloads, as the SDK client has them.

  default DescribeInstancesResponse describeInstances(Consumer<DescribeInstancesRequest.Builder> request) {
    return describeInstances(DescribeInstancesRequest.builder().applyMutation(request).build());
  }

  default CreateFleetResponse createFleet(Consumer<CreateFleetRequest.Builder> request) {
    return createFleet(CreateFleetRequest.builder().applyMutation(request).build());
  }

  default TerminateInstancesResponse terminateInstances(Consumer<TerminateInstancesRequest.Builder> request) {
    return terminateInstances(TerminateInstancesRequest.builder().applyMutation(request).build());
  }

  default DescribeLaunchTemplatesResponse describeLaunchTemplates(Consumer<DescribeLaunchTemplatesRequest.Builder> request) {
    return describeLaunchTemplates(DescribeLaunchTemplatesRequest.builder().applyMutation(request).build());
  }

  default CreateLaunchTemplateResponse createLaunchTemplate(Consumer<CreateLaunchTemplateRequest.Builder> request) {
    return createLaunchTemplate(CreateLaunchTemplateRequest.builder().applyMutation(request).build());
  }

  default void deleteLaunchTemplate(Consumer<DeleteLaunchTemplateRequest.Builder> request) {
    deleteLaunchTemplate(DeleteLaunchTemplateRequest.builder().applyMutation(request).build());
  }

  default DescribeInstanceTypesResponse describeInstanceTypes(Consumer<DescribeInstanceTypesRequest.Builder> request) {
    return describeInstanceTypes(DescribeInstanceTypesRequest.builder().applyMutation(request).build());
  }

  default DescribeInstanceTypeOfferingsResponse describeInstanceTypeOfferings(Consumer<DescribeInstanceTypeOfferingsRequest.Builder> request) {
    return describeInstanceTypeOfferings(DescribeInstanceTypeOfferingsRequest.builder().applyMutation(request).build());
  }

  default DescribeSpotPriceHistoryResponse describeSpotPriceHistory(Consumer<DescribeSpotPriceHistoryRequest.Builder> request) {
    return describeSpotPriceHistory(DescribeSpotPriceHistoryRequest.builder().applyMutation(request).build());
  }

  default DescribeCapacityReservationsResponse describeCapacityReservations(Consumer<DescribeCapacityReservationsRequest.Builder> request) {
    return describeCapacityReservations(DescribeCapacityReservationsRequest.builder().applyMutation(request).build());
  }

  /** The SDK client behind the interface. */
  static Ec2Api of(Ec2Client ec2) {
    return new Ec2Api() {
      @Override
      public DescribeInstancesResponse describeInstances(DescribeInstancesRequest request) {
        return ec2.describeInstances(request);
      }

      @Override
      public CreateFleetResponse createFleet(CreateFleetRequest request) {
        return ec2.createFleet(request);
      }

      @Override
      public TerminateInstancesResponse terminateInstances(TerminateInstancesRequest request) {
        return ec2.terminateInstances(request);
      }

      @Override
      public DescribeLaunchTemplatesResponse describeLaunchTemplates(DescribeLaunchTemplatesRequest request) {
        return ec2.describeLaunchTemplates(request);
      }

      @Override
      public CreateLaunchTemplateResponse createLaunchTemplate(CreateLaunchTemplateRequest request) {
        return ec2.createLaunchTemplate(request);
      }

      @Override
      public void deleteLaunchTemplate(DeleteLaunchTemplateRequest request) {
        ec2.deleteLaunchTemplate(request);
      }

      @Override
      public DescribeInstanceTypesResponse describeInstanceTypes(DescribeInstanceTypesRequest request) {
        return ec2.describeInstanceTypes(request);
      }

      @Override
      public DescribeInstanceTypeOfferingsResponse describeInstanceTypeOfferings(DescribeInstanceTypeOfferingsRequest request) {
        return ec2.describeInstanceTypeOfferings(request);
      }

      @Override
      public DescribeSpotPriceHistoryResponse describeSpotPriceHistory(DescribeSpotPriceHistoryRequest request) {
        return ec2.describeSpotPriceHistory(request);
      }

      @Override
      public DescribeCapacityReservationsResponse describeCapacityReservations(DescribeCapacityReservationsRequest request) {
        return ec2.describeCapacityReservations(request);
      }
    };
  }
}

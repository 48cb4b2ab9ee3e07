package dev.farrier.activities.cloud.aws;

import software.amazon.awssdk.services.ec2.model.CreateFleetRequest;
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

/** Passes every call to moto; a test overrides the one call whose answer moto cannot give. */
class DelegatingEc2Api implements Ec2Api {
  private final Ec2Api delegate;

  DelegatingEc2Api(Ec2Api delegate) {
    this.delegate = delegate;
  }

  @Override
  public DescribeInstancesResponse describeInstances(DescribeInstancesRequest request) {
    return delegate.describeInstances(request);
  }

  @Override
  public CreateFleetResponse createFleet(CreateFleetRequest request) {
    return delegate.createFleet(request);
  }

  @Override
  public TerminateInstancesResponse terminateInstances(TerminateInstancesRequest request) {
    return delegate.terminateInstances(request);
  }

  @Override
  public DescribeLaunchTemplatesResponse describeLaunchTemplates(DescribeLaunchTemplatesRequest request) {
    return delegate.describeLaunchTemplates(request);
  }

  @Override
  public CreateLaunchTemplateResponse createLaunchTemplate(CreateLaunchTemplateRequest request) {
    return delegate.createLaunchTemplate(request);
  }

  @Override
  public void deleteLaunchTemplate(DeleteLaunchTemplateRequest request) {
    delegate.deleteLaunchTemplate(request);
  }

  @Override
  public DescribeInstanceTypesResponse describeInstanceTypes(DescribeInstanceTypesRequest request) {
    return delegate.describeInstanceTypes(request);
  }

  @Override
  public DescribeInstanceTypeOfferingsResponse describeInstanceTypeOfferings(DescribeInstanceTypeOfferingsRequest request) {
    return delegate.describeInstanceTypeOfferings(request);
  }

  @Override
  public DescribeSpotPriceHistoryResponse describeSpotPriceHistory(DescribeSpotPriceHistoryRequest request) {
    return delegate.describeSpotPriceHistory(request);
  }

  @Override
  public software.amazon.awssdk.services.ec2.model.DescribeCapacityReservationsResponse describeCapacityReservations(
      software.amazon.awssdk.services.ec2.model.DescribeCapacityReservationsRequest request) {
    return delegate.describeCapacityReservations(request);
  }
}

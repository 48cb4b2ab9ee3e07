package dev.farrier.activities.cloud.aws;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * What the AWS provider needs besides its clients: the cluster its nodes join (name, API endpoint, CA bundle in
 * base64, service CIDR, all written into user data), where EKS's public SSM parameters live, the on-demand price
 * file (null = the shipped table) and how often the instance type catalogue and prices are refreshed.
 */
public record AwsProviderSettings(
    String clusterName,
    String region,
    String clusterEndpoint,
    String clusterCaBundle,
    String serviceCidr,
    String ssmParameterRoot,
    Path onDemandPricesFile,
    Duration catalogueRefresh) {
  public static final String DEFAULT_SSM_PARAMETER_ROOT = "/aws/service";
  public static final Duration DEFAULT_CATALOGUE_REFRESH = Duration.ofMinutes(30);

  public AwsProviderSettings {
    Objects.requireNonNull(clusterName, "clusterName");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(clusterEndpoint, "clusterEndpoint");
    Objects.requireNonNull(clusterCaBundle, "clusterCaBundle");
    Objects.requireNonNull(serviceCidr, "serviceCidr");
    ssmParameterRoot = ssmParameterRoot == null || ssmParameterRoot.isBlank() ? DEFAULT_SSM_PARAMETER_ROOT : ssmParameterRoot;
    catalogueRefresh = catalogueRefresh == null ? DEFAULT_CATALOGUE_REFRESH : catalogueRefresh;
  }
}

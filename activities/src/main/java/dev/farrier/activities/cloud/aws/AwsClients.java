package dev.farrier.activities.cloud.aws;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * The AWS SDK clients Farrier uses, built once from one {@link AwsConnection} and sharing one HTTP connection pool.
 * IAM is a global service: in AWS it is always signed for us-east-1's partition endpoint, which the SDK resolves
 * from {@code Region.AWS_GLOBAL}; against an emulator the override endpoint serves it like the rest.
 */
public final class AwsClients implements AutoCloseable {
  private final SdkHttpClient http;
  private final Ec2Client ec2;
  private final SsmClient ssm;
  private final SqsClient sqs;
  private final IamClient iam;

  public AwsClients(AwsConnection connection) {
    this.http = ApacheHttpClient.builder().maxConnections(32).build();
    AwsCredentialsProvider credentials = connection.accessKeyId() == null
        ? DefaultCredentialsProvider.builder().build()
        : StaticCredentialsProvider.create(AwsBasicCredentials.create(connection.accessKeyId(), connection.secretAccessKey()));
    this.ec2 = configure(Ec2Client.builder(), connection, credentials, Region.of(connection.region())).httpClient(http).build();
    this.ssm = configure(SsmClient.builder(), connection, credentials, Region.of(connection.region())).httpClient(http).build();
    this.sqs = configure(SqsClient.builder(), connection, credentials, Region.of(connection.region())).httpClient(http).build();
    this.iam = configure(IamClient.builder(), connection, credentials,
        connection.endpoint() == null ? Region.AWS_GLOBAL : Region.of(connection.region())).httpClient(http).build();
  }

  private static <B extends AwsClientBuilder<B, ?>> B configure(B builder, AwsConnection connection,
      AwsCredentialsProvider credentials, Region region) {
    builder.region(region).credentialsProvider(credentials);
    if (connection.endpoint() != null) {
      builder.endpointOverride(connection.endpoint());
    }
    return builder;
  }

  public Ec2Client ec2() {
    return ec2;
  }

  public SsmClient ssm() {
    return ssm;
  }

  public SqsClient sqs() {
    return sqs;
  }

  public IamClient iam() {
    return iam;
  }

  @Override
  public void close() {
    ec2.close();
    ssm.close();
    sqs.close();
    iam.close();
    http.close();
  }
}

package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.localstack.LocalStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Base of the tests that need both the real kube-apiserver (with Farrier's CRDs) and the AWS provider on moto, for a
 * cluster name of their own so they keep apart from other tests in the shared moto account.
 */
public abstract class AwsClusterIT extends ClusterIT {
  protected static AwsTestSupport aws;
  protected static String clusterName;

  @BeforeAll
  static void moto(LocalStack stack) {
    clusterName = KubeTestSupport.unique("aws-it");
    aws = new AwsTestSupport(stack, clusterName);
  }

  @AfterAll
  static void closeAws() {
    aws.clients().close();
  }
}

package dev.farrier.activities.kube;

import dev.farrier.localstack.LocalStack;
import dev.farrier.localstack.LocalStackExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** Base of the integration tests that need the shared local stack with Farrier's CRDs installed. */
@ExtendWith(LocalStackExtension.class)
public abstract class ClusterIT {
  protected static KubernetesClient client;
  protected static Cluster cluster;

  @BeforeAll
  static void connect(LocalStack stack) {
    client = KubeTestSupport.client(stack);
    cluster = new Fabric8Cluster(client);
    KubeTestSupport.installCrds(client);
  }

  @AfterAll
  static void disconnect() {
    client.close();
  }
}

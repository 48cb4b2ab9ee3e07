package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.Instance;
import dev.farrier.localstack.LocalStack;
import java.time.Clock;
import java.util.List;

/** For tests outside this package that need the AWS provider on moto (e.g. garbage collection with a cluster). */
public final class AwsTestSupport {
  private final AwsClients aws;
  private final MotoNetwork network;
  private final AwsCloudProvider provider;

  public AwsTestSupport(LocalStack stack, String cluster) {
    this.aws = new AwsClients(AwsConnection.emulator(MotoIT.REGION, stack.motoEndpoint()));
    this.network = MotoNetwork.create(aws, cluster);
    this.provider = new AwsCloudProvider(aws, AwsLaunchOnMotoIT.settings(cluster), () -> "1.34", Clock.systemUTC());
  }

  public AwsCloudProvider provider() {
    return provider;
  }

  public AwsClients clients() {
    return aws;
  }

  /** Launches an AL2023 on-demand instance for {@code claim} through the provider. */
  public Instance launch(String cluster, String claim) {
    return provider.create(AwsLaunchOnMotoIT.request(cluster, claim, network, "AL2023", null, List.of("on-demand")));
  }
}

package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.Instance;
import dev.farrier.localstack.LocalStack;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.TagSpecification;

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

  /**
   * A second instance with {@code original}'s image and tags, launched with RunInstances behind the provider's back:
   * what a retried launch that did not see the first instance would leave.
   */
  public Instance launchDuplicate(Instance original) {
    var tags = original.tags().entrySet().stream().map(e -> Tag.builder().key(e.getKey()).value(e.getValue()).build()).toList();
    String id = aws.ec2().runInstances(b -> b.imageId(original.imageId()).instanceType(original.instanceType()).minCount(1).maxCount(1)
        .subnetId(network.subnets().getFirst().id())
        .tagSpecifications(TagSpecification.builder().resourceType(ResourceType.INSTANCE).tags(tags).build()))
        .instances().getFirst().instanceId();
    return provider.get(id).orElseThrow();
  }

  /** An instance with exactly {@code tags}, launched with RunInstances behind the provider's back (someone else's). */
  public Instance launchTagged(Map<String, String> tags) {
    var ec2Tags = tags.entrySet().stream().map(e -> Tag.builder().key(e.getKey()).value(e.getValue()).build()).toList();
    String image = aws.ec2().describeImages(b -> b.owners("amazon")).images().getFirst().imageId();
    String id = aws.ec2().runInstances(b -> b.imageId(image).instanceType("m5.large").minCount(1).maxCount(1)
        .subnetId(network.subnets().getFirst().id())
        .tagSpecifications(TagSpecification.builder().resourceType(ResourceType.INSTANCE).tags(ec2Tags).build()))
        .instances().getFirst().instanceId();
    return provider.get(id).orElseThrow();
  }

  /** The provider with the same settings, pointed at another region of the emulator: every instance id is unknown there. */
  public AwsCloudProvider providerInRegion(LocalStack stack, String cluster, String region) {
    return new AwsCloudProvider(new AwsClients(AwsConnection.emulator(region, stack.motoEndpoint())), AwsLaunchOnMotoIT.settings(cluster),
        () -> "1.34", Clock.systemUTC());
  }

  /** Launches an AL2023 on-demand instance for {@code claim} through the provider. */
  public Instance launch(String cluster, String claim) {
    return provider.create(AwsLaunchOnMotoIT.request(cluster, claim, network, "AL2023", null, List.of("on-demand")));
  }
}

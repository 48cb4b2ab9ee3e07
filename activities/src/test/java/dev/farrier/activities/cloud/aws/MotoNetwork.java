package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.crd.ResolvedSubnet;
import java.time.Instant;
import java.util.List;
import software.amazon.awssdk.services.ec2.model.Filter;

/** A VPC with one subnet in each of two zones, a security group and an x86_64 image, made in moto for one test class. */
record MotoNetwork(List<ResolvedSubnet> subnets, String securityGroupId, Image image) {
  static MotoNetwork create(AwsClients aws, String name) {
    String vpc = aws.ec2().createVpc(b -> b.cidrBlock("10.40.0.0/16")).vpc().vpcId();
    String a = aws.ec2().createSubnet(b -> b.vpcId(vpc).cidrBlock("10.40.1.0/24").availabilityZone("us-east-1a")).subnet().subnetId();
    String b2 = aws.ec2().createSubnet(b -> b.vpcId(vpc).cidrBlock("10.40.2.0/24").availabilityZone("us-east-1b")).subnet().subnetId();
    String sg = aws.ec2().createSecurityGroup(b -> b.vpcId(vpc).groupName(name).description("farrier test")).groupId();
    var image = aws.ec2().describeImages(b -> b.owners("amazon").filters(Filter.builder().name("architecture").values("x86_64").build()))
        .images().getFirst();
    return new MotoNetwork(List.of(new ResolvedSubnet(a, "us-east-1a", null), new ResolvedSubnet(b2, "us-east-1b", null)), sg,
        new Image(image.imageId(), image.name(), "x86_64", "amazon", "1.34", null, Instant.parse("2025-01-01T00:00:00Z")));
  }
}

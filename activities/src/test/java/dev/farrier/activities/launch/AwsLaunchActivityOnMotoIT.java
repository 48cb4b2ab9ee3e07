package dev.farrier.activities.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.nodeclass.NodeClassLaunches;
import dev.farrier.activities.status.StatusRefresher;
import dev.farrier.activities.views.InstanceTypeViews;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.farrier.activities.cloud.aws.AwsClusterIT;
import dev.farrier.activities.cloud.aws.EphemeralStorage;
import dev.farrier.activities.cloud.aws.userdata.MimeMultipart;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.workflows.activities.TerminateInstanceRequest;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.NodeKubelet;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Tag;

/**
 * The launch path end to end on moto and the real kube-apiserver: the status loop resolves an EC2NodeClass
 * (subnets and security group by discovery tag, an instance profile managed from a role) through the AWS provider,
 * and the launch activity launches from that status into the resolved subnets with the resolved profile.
 */
class AwsLaunchActivityOnMotoIT extends AwsClusterIT {
  @Test
  void aClaimLaunchesIntoTheSubnetsAndWithTheProfileTheStatusLoopResolved() throws Exception {
    var ec2 = aws.clients().ec2();
    Tag discovery = Tag.builder().key("karpenter.sh/discovery").value(clusterName).build();
    String vpc = ec2.createVpc(b -> b.cidrBlock("10.60.0.0/16")).vpc().vpcId();
    String subnet = ec2.createSubnet(b -> b.vpcId(vpc).cidrBlock("10.60.1.0/24").availabilityZone("us-east-1c")
        .tagSpecifications(t -> t.resourceType("subnet").tags(discovery))).subnet().subnetId();
    String group = ec2.createSecurityGroup(b -> b.vpcId(vpc).groupName(clusterName).description("nodes")
        .tagSpecifications(t -> t.resourceType("security-group").tags(discovery))).groupId();
    String role = KubeTestSupport.unique("node-role");
    aws.clients().iam().createRole(b -> b.roleName(role).assumeRolePolicyDocument("{\"Version\":\"2012-10-17\",\"Statement\":[]}"));
    String image = ec2.describeImages(b -> b.owners("amazon").filters(Filter.builder().name("architecture").values("x86_64").build()))
        .images().getFirst().imageId();
    String nodeClass = KubeTestSupport.unique("class");
    String nodePool = KubeTestSupport.unique("pool");
    KubeTestSupport.apply(client, """
        apiVersion: karpenter.k8s.aws/v1
        kind: EC2NodeClass
        metadata:
          name: %s
        spec:
          amiFamily: AL2023
          amiSelectorTerms:
            - id: %s
          role: %s
          subnetSelectorTerms:
            - tags:
                karpenter.sh/discovery: %s
          securityGroupSelectorTerms:
            - tags:
                karpenter.sh/discovery: %s
          kubelet:
            maxPods: 40
            kubeReserved:
              cpu: 150m
            systemReserved:
              memory: 300Mi
            evictionHard:
              memory.available: 200Mi
          blockDeviceMappings:
            - deviceName: /dev/xvda
              rootVolume: true
              ebs:
                volumeSize: 50Gi
        """.formatted(nodeClass, image, role, clusterName, clusterName));
    KubeTestSupport.apply(client, KubeTestSupport.nodePoolYaml(nodePool, nodeClass));

    new StatusRefresher(cluster, aws.provider(), clusterName, Clock.systemUTC()).refresh();
    var status = cluster.getNodeClass(nodeClass).orElseThrow().getStatus();
    assertEquals(List.of(subnet), status.subnets().stream().map(s -> s.id()).toList());
    assertEquals(List.of(group), status.securityGroups().stream().map(g -> g.id()).toList());

    var activities = new NodeClaimActivitiesImpl(cluster, aws.provider(), new SimpleMeterRegistry());
    String claim = KubeTestSupport.unique(nodePool);
    activities.createNodeClaim(new NodeClaimRequest(claim, nodePool, nodeClass, List.of("m5.large"),
        List.of(Requirement.in(WellKnown.INSTANCE_TYPE_LABEL, List.of("m5.large")),
            Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.of(WellKnown.CAPACITY_ON_DEMAND))),
        Resources.of(1000, 1L << 30, 1), Map.of(), List.of(), List.of(), "hash-1", null, null, List.of()));
    var launched = activities.launchInstance(new NodeClaimRef(clusterName, claim));
    var again = activities.launchInstance(new NodeClaimRef(clusterName, claim));

    assertEquals(launched.instanceId(), again.instanceId());
    assertEquals("us-east-1c", launched.zone(), "the only resolved subnet's zone");
    var instance = ec2.describeInstances(b -> b.instanceIds(launched.instanceId())).reservations().getFirst().instances().getFirst();
    assertEquals(subnet, instance.subnetId());
    String hash = instance.tags().stream().filter(t -> t.key().equals("farrier.dev/launch-template")).findFirst().orElseThrow().value();
    var data = ec2.describeLaunchTemplateVersions(b -> b.launchTemplateName("farrier/" + clusterName + "/" + hash).versions("$Latest"))
        .launchTemplateVersions().getFirst().launchTemplateData();
    assertEquals(status.instanceProfile(), data.iamInstanceProfile().name());
    assertEquals(List.of(group), data.securityGroupIds());
    assertEquals(50, data.blockDeviceMappings().getFirst().ebs().volumeSize());

    // The node is told what the planner assumed for an m5.large of this class: its 50Gi root volume, max pods and
    // kube-reserved, and the class's system-reserved and eviction threshold; and it registers tainted.
    var ec2NodeClass = cluster.getNodeClass(nodeClass).orElseThrow();
    var m5large = aws.provider().instanceTypes().stream().filter(t -> t.name().equals("m5.large")).findFirst().orElseThrow();
    var view = InstanceTypeViews.view(m5large, EphemeralStorage.rootVolume("AL2023", ec2NodeClass.getSpec().blockDeviceMappings()));
    assertEquals(50L << 30, view.capacity().ephemeralStorageBytes());
    var planned = NodeKubelet.of(view.capacity(), NodeClassLaunches.kubelet(ec2NodeClass));
    String userData = new String(Base64.getDecoder().decode(data.userData()), StandardCharsets.UTF_8);
    JsonNode config = new YAMLMapper().readTree(MimeMultipart.parse(userData).getLast().body()).at("/spec/kubelet/config");
    assertEquals(40, planned.maxPods());
    assertEquals(planned.maxPods(), config.get("maxPods").asLong(), userData);
    assertEquals(Map.of("cpu", "150m", "memory", "695Mi", "ephemeral-storage", "1Gi"), planned.kubeReservedQuantities());
    assertEquals(planned.kubeReservedQuantities(), new YAMLMapper().convertValue(config.get("kubeReserved"), Map.class), userData);
    assertEquals(Map.of("memory", "300Mi"), new YAMLMapper().convertValue(config.get("systemReserved"), Map.class), userData);
    assertEquals(Map.of("memory.available", "200Mi"), new YAMLMapper().convertValue(config.get("evictionHard"), Map.class), userData);
    List<String> taints = new java.util.ArrayList<>();
    config.get("registerWithTaints").forEach(t -> taints.add(t.get("key").asText() + ":" + t.get("effect").asText()));
    assertTrue(taints.contains(WellKnown.UNREGISTERED_TAINT_KEY + ":NoExecute"), taints.toString());
    assertEquals("aws:///us-east-1c/" + launched.instanceId(), cluster.getNodeClaim(claim).orElseThrow().getStatus().providerID());

    var state = activities.terminateInstance(new TerminateInstanceRequest(clusterName, claim, null));
    assertEquals(launched.instanceId(), state.instanceId(), "found by the claim's tag");
    assertTrue(List.of("shutting-down", "terminated").contains(state.state()), state.state());
  }
}

package dev.farrier.activities.cloud.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.CloudProviderException.Kind;
import dev.farrier.activities.cloud.InstanceProfileNames;
import dev.farrier.activities.cloud.InstanceProfileRequest;
import dev.farrier.activities.cloud.RoleNotFoundException;
import dev.farrier.activities.cloud.SecurityGroup;
import dev.farrier.activities.cloud.SecurityGroupTerm;
import dev.farrier.activities.cloud.Subnet;
import dev.farrier.activities.cloud.SubnetTerm;
import dev.farrier.activities.cloud.simulated.CloudCall.Operation;
import dev.farrier.model.WellKnown;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The simulated VPC and IAM that EC2NodeClass subnet, security-group and role/instanceProfile selectors resolve against. */
class SimulatedNodeClassResourcesTest {
  @TempDir
  Path stateDir;

  private SimulatedCloud cloud(String cluster) {
    return new SimulatedCloud(SimulatedCloudConfig.defaults(stateDir).withCluster(cluster));
  }

  @Test
  void discoveryTagResolvesOneSubnetPerZoneAndTheNodeSecurityGroup() {
    var cloud = cloud("prod");
    List<Subnet> subnets = cloud.resolveSubnets(List.of(new SubnetTerm(null, Map.of("karpenter.sh/discovery", "prod"))));
    assertEquals(cloud.catalog().zones(), subnets.stream().map(Subnet::zone).sorted().toList());
    assertTrue(subnets.stream().allMatch(s -> s.id().matches("subnet-[0-9a-f]{17}") && s.zoneId().matches("use1-az\\d")
        && s.availableIps() == SimulatedNetwork.AVAILABLE_IPS && s.tags().get("Name").equals("prod-private-" + s.zone())), subnets.toString());
    assertEquals("use1-az1", subnets.stream().filter(s -> s.zone().equals("us-east-1a")).findFirst().orElseThrow().zoneId());

    List<SecurityGroup> groups = cloud.resolveSecurityGroups(List.of(new SecurityGroupTerm(null, null, Map.of("karpenter.sh/discovery", "*"))));
    assertEquals(List.of("prod-node"), groups.stream().map(SecurityGroup::name).toList());
    assertEquals(groups, cloud.resolveSecurityGroups(List.of(new SecurityGroupTerm(null, "prod-node", null))));
    assertEquals(groups, cloud.resolveSecurityGroups(List.of(new SecurityGroupTerm(groups.getFirst().id(), null, null))));
    // The extra group has no discovery tag: only its name or id selects it.
    var extra = cloud.resolveSecurityGroups(List.of(new SecurityGroupTerm(null, "prod-extra", null)));
    assertEquals(List.of("prod-extra"), extra.stream().map(SecurityGroup::name).toList());
    assertEquals(2, cloud.resolveSecurityGroups(List.of(new SecurityGroupTerm(null, "prod-extra", null),
        new SecurityGroupTerm(null, "prod-node", null))).size());
  }

  @Test
  void anotherClustersTagOrAnUnknownIdMatchesNothingAndIdsAreStableAcrossInstances() {
    var cloud = cloud("prod");
    assertEquals(List.of(), cloud.resolveSubnets(List.of(new SubnetTerm(null, Map.of("karpenter.sh/discovery", "dev")))));
    assertEquals(List.of(), cloud.resolveSubnets(List.of(new SubnetTerm("subnet-00000000000000000", null))));
    assertEquals(List.of(), cloud.resolveSecurityGroups(List.of(new SecurityGroupTerm(null, "dev-node", null))));
    var first = cloud.network().subnets().getFirst();
    assertEquals(List.of(first), cloud("prod").resolveSubnets(List.of(new SubnetTerm(first.id(), null))));
  }

  @Test
  void aRoleTheAccountLacksIsRoleNotFoundAndMakesNoProfileUntilCreatedOrConfigured() {
    var cloud = cloud("prod");
    var missing = InstanceProfileRequest.ofRole("prod", "default", "KarpenterNodeRole-typo");
    var e = assertThrows(RoleNotFoundException.class, () -> cloud.resolveInstanceProfile(missing));
    assertEquals(List.of(Kind.NOT_FOUND, "KarpenterNodeRole-typo"), List.of(e.kind(), e.role()));
    assertTrue(e.getMessage().contains("KarpenterNodeRole-typo") && e.getMessage().contains("default"), e.getMessage());
    assertTrue(cloud.instanceProfileRole(InstanceProfileNames.managed("us-east-1", "prod", "default")).isEmpty());

    cloud.createRole("KarpenterNodeRole-typo");
    assertEquals("KarpenterNodeRole-typo", cloud("prod").instanceProfileRole(cloud("prod").resolveInstanceProfile(missing)).orElseThrow(),
        "another process sees the role");

    var configured = new SimulatedCloud(SimulatedCloudConfig.defaults(stateDir.resolve("other")).withCluster("prod")
        .withIamRoles(java.util.Set.of("NodeRole")));
    assertThrows(RoleNotFoundException.class, () -> configured.resolveInstanceProfile(
        InstanceProfileRequest.ofRole("prod", "default", "KarpenterNodeRole-prod")), "only the configured roles exist");
    configured.resolveInstanceProfile(InstanceProfileRequest.ofRole("prod", "default", "NodeRole"));
  }

  @Test
  void roleGetsAManagedProfileCreatedOnceRecordedInStateAndSwappedWhenTheRoleChanges() {
    var cloud = cloud("prod");
    var request = InstanceProfileRequest.ofRole("prod", "default", "KarpenterNodeRole-prod");
    String name = cloud.resolveInstanceProfile(request);
    assertEquals(InstanceProfileNames.managed("us-east-1", "prod", "default"), name);
    assertEquals(name, cloud(("prod")).resolveInstanceProfile(request), "a second worker finds the same profile");
    assertEquals("KarpenterNodeRole-prod", cloud.instanceProfileRole(name).orElseThrow());
    assertEquals(Map.of(WellKnown.TAG_OWNER, "farrier", WellKnown.TAG_CLUSTER, "prod", WellKnown.TAG_NODECLASS, "default"),
        cloud.instanceProfileTags(name).orElseThrow());
    assertEquals(1, cloud.calls().read().stream().filter(c -> c.operation() == Operation.INSTANCE_PROFILE_PUT).count(), "created once");

    cloud.createRole("OtherRole");
    cloud.resolveInstanceProfile(InstanceProfileRequest.ofRole("prod", "default", "OtherRole"));
    assertEquals("OtherRole", cloud.instanceProfileRole(name).orElseThrow());
  }

  @Test
  void aNamedProfileMustExistAndBadRequestsAreTyped() {
    var cloud = cloud("prod");
    var missing = assertThrows(CloudProviderException.class,
        () -> cloud.resolveInstanceProfile(InstanceProfileRequest.ofInstanceProfile("prod", "default", "MyProfile")));
    assertEquals(Kind.NOT_FOUND, missing.kind());
    assertTrue(missing.getMessage().contains("MyProfile"), missing.getMessage());
    cloud.registerInstanceProfile("MyProfile", "MyRole");
    assertEquals("MyProfile", cloud.resolveInstanceProfile(InstanceProfileRequest.ofInstanceProfile("prod", "default", "MyProfile")));
    assertEquals(Kind.INVALID_REQUEST, assertThrows(CloudProviderException.class,
        () -> cloud.resolveInstanceProfile(new InstanceProfileRequest("prod", "default", null, null))).kind());
  }
}

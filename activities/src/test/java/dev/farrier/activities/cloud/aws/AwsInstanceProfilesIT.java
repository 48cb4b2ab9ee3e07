package dev.farrier.activities.cloud.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.CloudProviderException.Kind;
import dev.farrier.activities.cloud.InstanceProfileNames;
import dev.farrier.activities.cloud.InstanceProfileRequest;
import dev.farrier.activities.cloud.RoleNotFoundException;
import dev.farrier.model.WellKnown;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.iam.model.InstanceProfile;
import software.amazon.awssdk.services.iam.model.NoSuchEntityException;
import software.amazon.awssdk.services.iam.model.Role;

/** spec.role and spec.instanceProfile against moto's IAM. */
class AwsInstanceProfilesIT extends MotoIT {
  private final AwsInstanceProfiles profiles = new AwsInstanceProfiles(aws, REGION);

  private static String role(String prefix) {
    String role = unique(prefix);
    aws.iam().createRole(b -> b.roleName(role).assumeRolePolicyDocument(
        "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"Service\":\"ec2.amazonaws.com\"},\"Action\":\"sts:AssumeRole\"}]}"));
    return role;
  }

  private static InstanceProfile profile(String name) {
    return aws.iam().getInstanceProfile(b -> b.instanceProfileName(name)).instanceProfile();
  }

  private static Map<String, String> tags(InstanceProfile profile) {
    Map<String, String> tags = new TreeMap<>();
    profile.tags().forEach(t -> tags.put(t.key(), t.value()));
    return tags;
  }

  @Test
  void roleGetsAFarrierProfileCreatedOnceTaggedAndReusedThenSwappedToANewRole() {
    String cluster = unique("farrier-iam");
    String role = role("node-role");
    var request = InstanceProfileRequest.ofRole(cluster, "default", role);

    String name = profiles.resolve(request);
    assertEquals(InstanceProfileNames.managed(REGION, cluster, "default"), name);
    InstanceProfile created = profile(name);
    assertEquals(List.of(role), created.roles().stream().map(Role::roleName).toList());
    assertEquals(Map.of(WellKnown.TAG_OWNER, "farrier", WellKnown.TAG_CLUSTER, cluster, WellKnown.TAG_NODECLASS, "default"), tags(created));

    assertEquals(name, profiles.resolve(request));
    assertEquals(name, new AwsInstanceProfiles(aws, REGION).resolve(request), "another worker finds the same profile");
    InstanceProfile reused = profile(name);
    assertEquals(created.instanceProfileId(), reused.instanceProfileId(), "reused, not created again");
    assertEquals(List.of(role), reused.roles().stream().map(Role::roleName).toList());

    String newRole = role("node-role-2");
    assertEquals(name, profiles.resolve(InstanceProfileRequest.ofRole(cluster, "default", newRole)));
    assertEquals(List.of(newRole), profile(name).roles().stream().map(Role::roleName).toList());
  }

  @Test
  void aMissingRoleIsNotFoundAndCreatesNothing() {
    String cluster = unique("farrier-iam");
    var e = assertThrows(CloudProviderException.class,
        () -> profiles.resolve(InstanceProfileRequest.ofRole(cluster, "default", "no-such-role-" + cluster)));
    assertEquals(Kind.NOT_FOUND, e.kind());
    assertEquals("no-such-role-" + cluster, assertInstanceOf(RoleNotFoundException.class, e).role());
    assertTrue(e.getMessage().contains("no-such-role-" + cluster), e.getMessage());
    assertThrows(NoSuchEntityException.class, () -> profile(InstanceProfileNames.managed(REGION, cluster, "default")));
  }

  /** IAM's own answer to a missing role is NoSuchEntity; a class moved to one keeps the profile its nodes boot with. */
  @Test
  void aClassMovedToAMissingRoleKeepsItsProfilesRoleAndGetsRoleNotFound() {
    String cluster = unique("farrier-iam");
    String role = unique("KarpenterNodeRole");
    aws.iam().createRole(b -> b.roleName(role).assumeRolePolicyDocument("{}"));
    String name = profiles.resolve(InstanceProfileRequest.ofRole(cluster, "default", role));
    assertThrows(NoSuchEntityException.class,
        () -> aws.iam().addRoleToInstanceProfile(b -> b.instanceProfileName(name).roleName("no-such-role-" + cluster)));

    var e = assertThrows(RoleNotFoundException.class,
        () -> profiles.resolve(InstanceProfileRequest.ofRole(cluster, "default", "no-such-role-" + cluster)));
    assertEquals(RoleNotFoundException.REASON, "RoleNotFound");
    assertTrue(e.getMessage().contains("no-such-role-" + cluster), e.getMessage());
    assertEquals(List.of(role), profile(name).roles().stream().map(Role::roleName).toList());
  }

  @Test
  void aNamedProfileIsCheckedToExistAndLeftAsItIs() {
    String own = unique("my-profile");
    aws.iam().createInstanceProfile(b -> b.instanceProfileName(own));
    assertEquals(own, profiles.resolve(InstanceProfileRequest.ofInstanceProfile("c", "default", own)));
    assertEquals(Map.of(), tags(profile(own)), "a user's profile is not tagged");

    var e = assertThrows(CloudProviderException.class,
        () -> profiles.resolve(InstanceProfileRequest.ofInstanceProfile("c", "default", own + "-missing")));
    assertEquals(Kind.NOT_FOUND, e.kind());
    assertTrue(e.getMessage().contains(own + "-missing"), e.getMessage());
  }

  @Test
  void aProfileOfTheManagedNameWithoutFarriersTagsIsNotOwnedAndUntouched() {
    String cluster = unique("farrier-iam");
    String name = InstanceProfileNames.managed(REGION, cluster, "default");
    String theirs = role("their-role");
    aws.iam().createInstanceProfile(b -> b.instanceProfileName(name));
    aws.iam().addRoleToInstanceProfile(b -> b.instanceProfileName(name).roleName(theirs));

    var e = assertThrows(CloudProviderException.class,
        () -> profiles.resolve(InstanceProfileRequest.ofRole(cluster, "default", role("node-role"))));
    assertEquals(Kind.NOT_OWNED, e.kind());
    assertEquals(List.of(theirs), profile(name).roles().stream().map(Role::roleName).toList());
  }

  @Test
  void neitherOrBothOfRoleAndProfileIsAnInvalidRequest() {
    assertEquals(Kind.INVALID_REQUEST, assertThrows(CloudProviderException.class,
        () -> profiles.resolve(new InstanceProfileRequest("c", "default", "r", "p"))).kind());
  }
}

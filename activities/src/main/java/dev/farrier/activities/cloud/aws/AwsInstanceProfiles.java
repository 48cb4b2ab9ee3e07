package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.Ownership;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.CloudProviderException.Kind;
import dev.farrier.activities.cloud.InstanceProfileNames;
import dev.farrier.activities.cloud.InstanceProfileRequest;
import dev.farrier.activities.cloud.RoleNotFoundException;
import dev.farrier.model.WellKnown;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.iam.model.EntityAlreadyExistsException;
import software.amazon.awssdk.services.iam.model.InstanceProfile;
import software.amazon.awssdk.services.iam.model.NoSuchEntityException;
import software.amazon.awssdk.services.iam.model.Role;
import software.amazon.awssdk.services.iam.model.Tag;

/**
 * The instance profile of an EC2NodeClass, through IAM, as {@code CloudProvider.resolveInstanceProfile} specifies:
 * a {@code spec.instanceProfile} is only checked to exist; for a {@code spec.role} Farrier keeps its own profile,
 * named {@link InstanceProfileNames#managed} from region, cluster and class and tagged {@code farrier.dev/owner},
 * the cluster tag and the EC2NodeClass tag, holding exactly that role.
 *
 * <p>Idempotent: the name is deterministic, so every pass (and a retry after a lost response, or another worker)
 * finds the same profile; each step (create, remove a stale role, add the role) is done only when the profile read
 * just before shows it missing, and a concurrent create ({@code EntityAlreadyExists}) is treated as found. A profile
 * of that name without Farrier's tags for this cluster is never changed ({@link Kind#NOT_OWNED}).
 */
public final class AwsInstanceProfiles {
  private static final Logger log = LoggerFactory.getLogger(AwsInstanceProfiles.class);
  private final AwsClients aws;
  private final String region;

  /** @param region the worker's region: part of the managed name, since IAM is global and clusters are regional */
  public AwsInstanceProfiles(AwsClients aws, String region) {
    this.aws = aws;
    this.region = region;
  }

  public String resolve(InstanceProfileRequest request) {
    String problem = request.problem();
    if (problem != null) {
      throw new CloudProviderException(Kind.INVALID_REQUEST, problem);
    }
    try {
      if (request.instanceProfile() != null) {
        return find(request.instanceProfile()).map(InstanceProfile::instanceProfileName)
            .orElseThrow(() -> new CloudProviderException(Kind.NOT_FOUND, "instance profile " + request.instanceProfile()
                + " of EC2NodeClass " + request.nodeClass() + " does not exist"));
      }
      return ensureManaged(request);
    } catch (AwsServiceException e) {
      throw AwsCallFailures.translate("IAM instance profile of EC2NodeClass " + request.nodeClass(), e);
    }
  }

  private String ensureManaged(InstanceProfileRequest request) {
    String name = InstanceProfileNames.managed(region, request.cluster(), request.nodeClass());
    InstanceProfile profile = find(name).orElse(null);
    if (profile == null) {
      requireRole(request);
      profile = create(name, request);
    }
    Map<String, String> tags = tags(profile.tags());
    if (!Ownership.OWNER_VALUE.equals(tags.get(WellKnown.TAG_OWNER)) || !request.cluster().equals(tags.get(WellKnown.TAG_CLUSTER))) {
      throw new CloudProviderException(Kind.NOT_OWNED, "instance profile " + name + " exists without Farrier's tags for cluster "
          + request.cluster() + " (tags " + tags + "); not changing it");
    }
    List<String> roles = profile.roles().stream().map(Role::roleName).toList();
    if (roles.equals(List.of(request.role()))) {
      return name;
    }
    if (!roles.contains(request.role())) {
      // Before the old role leaves: a class pointed at a missing role keeps the profile its nodes boot with.
      requireRole(request);
    }
    for (String stale : roles) {
      if (!stale.equals(request.role())) {
        aws.iam().removeRoleFromInstanceProfile(b -> b.instanceProfileName(name).roleName(stale));
        log.info("instance profile role removed profile={} role={} nodeclass={}", name, stale, request.nodeClass());
      }
    }
    if (!roles.contains(request.role())) {
      try {
        aws.iam().addRoleToInstanceProfile(b -> b.instanceProfileName(name).roleName(request.role()));
      } catch (NoSuchEntityException e) {
        // The role went away since requireRole looked (IAM answers NoSuchEntity for a missing role here too).
        throw new RoleNotFoundException(request.role(), request.nodeClass());
      }
      log.info("instance profile role added profile={} role={} nodeclass={}", name, request.role(), request.nodeClass());
    }
    return name;
  }

  private InstanceProfile create(String name, InstanceProfileRequest request) {
    List<Tag> tags = List.of(tag(WellKnown.TAG_OWNER, Ownership.OWNER_VALUE), tag(WellKnown.TAG_CLUSTER, request.cluster()),
        tag(WellKnown.TAG_NODECLASS, request.nodeClass()));
    try {
      InstanceProfile created = aws.iam().createInstanceProfile(b -> b.instanceProfileName(name).tags(tags)).instanceProfile();
      log.info("instance profile created profile={} cluster={} nodeclass={}", name, request.cluster(), request.nodeClass());
      // CreateInstanceProfile's answer may omit the tags; what counts is what IAM holds now.
      return find(name).orElse(created);
    } catch (EntityAlreadyExistsException e) {
      return find(name).orElseThrow(() -> e);
    }
  }

  private void requireRole(InstanceProfileRequest request) {
    try {
      aws.iam().getRole(b -> b.roleName(request.role()));
    } catch (NoSuchEntityException e) {
      throw new RoleNotFoundException(request.role(), request.nodeClass());
    }
  }

  private Optional<InstanceProfile> find(String name) {
    try {
      return Optional.of(aws.iam().getInstanceProfile(b -> b.instanceProfileName(name)).instanceProfile());
    } catch (NoSuchEntityException e) {
      return Optional.empty();
    }
  }

  private static Tag tag(String key, String value) {
    return Tag.builder().key(key).value(value).build();
  }

  private static Map<String, String> tags(List<Tag> tags) {
    Map<String, String> map = new TreeMap<>();
    tags.forEach(t -> map.put(t.key(), t.value()));
    return map;
  }
}

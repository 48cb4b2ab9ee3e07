package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.Ownership;
import dev.farrier.model.WellKnown;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.model.DescribeLaunchTemplatesResponse;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.LaunchTemplate;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateTagSpecificationRequest;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.TagSpecification;

/**
 * Farrier's launch templates: found by their deterministic name or created, and deleted when no live instance was
 * launched from them any more. Every template carries Farrier's owner and cluster tags, so cleanup only ever looks
 * at this cluster's templates.
 */
public final class LaunchTemplates {
  private static final Logger log = LoggerFactory.getLogger(LaunchTemplates.class);
  private static final String NOT_FOUND = "InvalidLaunchTemplateName.NotFoundException";
  private static final String ALREADY_EXISTS = "InvalidLaunchTemplateName.AlreadyExistsException";

  private final Ec2Api ec2;

  public LaunchTemplates(Ec2Api ec2) {
    this.ec2 = ec2;
  }

  /**
   * The template's name, created when missing. Idempotent: the name is a hash of the spec, so a second call (or a
   * second worker racing this one, answered with AlreadyExists) finds the same template.
   */
  public String ensure(LaunchTemplateSpec spec) {
    String name = spec.name();
    if (find(name)) {
      return name;
    }
    Map<String, String> tags = new TreeMap<>(spec.tags());
    tags.put(WellKnown.TAG_OWNER, Ownership.OWNER_VALUE);
    tags.put(WellKnown.TAG_CLUSTER, spec.cluster());
    List<Tag> tagList = tags.entrySet().stream().map(e -> Tag.builder().key(e.getKey()).value(e.getValue()).build()).toList();
    // CreateFleet cannot tag network interfaces; the template tags them at launch, as the IAM policy requires.
    var data = spec.data().toBuilder().tagSpecifications(LaunchTemplateTagSpecificationRequest.builder()
        .resourceType(ResourceType.NETWORK_INTERFACE).tags(tagList).build()).build();
    try {
      ec2.createLaunchTemplate(b -> b.launchTemplateName(name).launchTemplateData(data)
          .tagSpecifications(TagSpecification.builder().resourceType(ResourceType.LAUNCH_TEMPLATE).tags(tagList).build()));
      log.info("launch template created name={} image={} cluster={}", name, spec.imageId(), spec.cluster());
    } catch (SdkException e) {
      if (!ALREADY_EXISTS.equals(Ec2Errors.code(e))) {
        throw Ec2Errors.map("CreateLaunchTemplate " + name, e);
      }
    }
    return name;
  }

  private boolean find(String name) {
    try {
      return !ec2.describeLaunchTemplates(b -> b.launchTemplateNames(name)).launchTemplates().isEmpty();
    } catch (SdkException e) {
      if (NOT_FOUND.equals(Ec2Errors.code(e))) {
        return false;
      }
      throw Ec2Errors.map("DescribeLaunchTemplates " + name, e);
    }
  }

  /** This cluster's templates (name -> creation time). */
  public Map<String, Instant> list(String cluster) {
    List<LaunchTemplate> templates = new ArrayList<>();
    String token = null;
    do {
      String next = token;
      DescribeLaunchTemplatesResponse page;
      try {
        page = ec2.describeLaunchTemplates(b -> b.nextToken(next).maxResults(200).filters(
            Filter.builder().name("tag:" + WellKnown.TAG_OWNER).values(Ownership.OWNER_VALUE).build(),
            Filter.builder().name("tag:" + WellKnown.TAG_CLUSTER).values(cluster).build()));
      } catch (SdkException e) {
        throw Ec2Errors.map("DescribeLaunchTemplates", e);
      }
      templates.addAll(page.launchTemplates());
      token = page.nextToken();
    } while (token != null && !token.isEmpty());
    return templates.stream().filter(t -> t.launchTemplateName().startsWith(LaunchTemplateSpec.NAME_PREFIX))
        .collect(Collectors.toMap(LaunchTemplate::launchTemplateName, LaunchTemplate::createTime, (a, b) -> a));
  }

  /**
   * Deletes this cluster's templates that no name in {@code inUse} refers to and that were created before
   * {@code createdBefore} (a template made for a launch still in flight is young). Idempotent: a template already
   * gone is done. Returns the names deleted.
   */
  public List<String> deleteUnused(String cluster, Set<String> inUse, Instant createdBefore) {
    List<String> deleted = new ArrayList<>();
    for (var template : list(cluster).entrySet()) {
      String name = template.getKey();
      if (inUse.contains(name) || template.getValue() == null || !template.getValue().isBefore(createdBefore)) {
        continue;
      }
      try {
        ec2.deleteLaunchTemplate(b -> b.launchTemplateName(name));
      } catch (SdkException e) {
        if (!NOT_FOUND.equals(Ec2Errors.code(e))) {
          throw Ec2Errors.map("DeleteLaunchTemplate " + name, e);
        }
      }
      log.info("launch template deleted name={} cluster={} reason=unused", name, cluster);
      deleted.add(name);
    }
    return deleted;
  }
}

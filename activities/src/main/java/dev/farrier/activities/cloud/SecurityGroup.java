package dev.farrier.activities.cloud;

import java.util.Map;

/** A security group a {@link SecurityGroupTerm} resolved to. */
public record SecurityGroup(String id, String name, Map<String, String> tags) {
  public SecurityGroup {
    tags = tags == null ? Map.of() : Map.copyOf(tags);
  }
}

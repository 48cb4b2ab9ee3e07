package dev.farrier.activities.cloud;

import java.util.Map;

/**
 * One {@code securityGroupSelectorTerms} entry: an {@code id}, a {@code name} (the group name, not its Name tag),
 * or {@code tags} (a {@code *} value matches any value of that key); the fields set are ANDed. A term with none
 * matches nothing.
 */
public record SecurityGroupTerm(String id, String name, Map<String, String> tags) {
  public SecurityGroupTerm {
    tags = tags == null ? Map.of() : Map.copyOf(tags);
  }

  public boolean matches(SecurityGroup group) {
    if (id == null && name == null && tags.isEmpty()) {
      return false;
    }
    return (id == null || id.equals(group.id())) && (name == null || name.equals(group.name()))
        && SelectorTags.match(tags, group.tags());
  }
}

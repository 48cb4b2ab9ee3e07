package dev.farrier.activities.cloud;

import java.util.Map;

/**
 * One {@code subnetSelectorTerms} entry: an {@code id}, or {@code tags} that must all match (a {@code *} value
 * matches any value of that key), or both (ANDed). A term with neither matches nothing.
 */
public record SubnetTerm(String id, Map<String, String> tags) {
  public SubnetTerm {
    tags = tags == null ? Map.of() : Map.copyOf(tags);
  }

  public boolean matches(String candidateId, Map<String, String> candidateTags) {
    if (id == null && tags.isEmpty()) {
      return false;
    }
    return (id == null || id.equals(candidateId)) && SelectorTags.match(tags, candidateTags);
  }
}

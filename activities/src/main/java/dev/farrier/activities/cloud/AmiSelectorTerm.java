package dev.farrier.activities.cloud;

import java.util.Map;

/** One {@code amiSelectorTerms} entry of an EC2NodeClass; exactly the fields the user set are non-null. */
public record AmiSelectorTerm(String id, String name, String owner, Map<String, String> tags, String alias) {
  public AmiSelectorTerm {
    tags = tags == null ? Map.of() : Map.copyOf(tags);
  }

  public static AmiSelectorTerm byId(String id) {
    return new AmiSelectorTerm(id, null, null, Map.of(), null);
  }
}

package dev.farrier.activities.cloud;

import java.util.Map;

/**
 * One {@code amiSelectorTerms} entry of an EC2NodeClass; exactly the fields the user set are non-null.
 * {@code ssmParameter}: the name (or ARN) of an SSM parameter whose value is an image id, read at each resolution.
 */
public record AmiSelectorTerm(String id, String name, String owner, Map<String, String> tags, String alias, String ssmParameter) {
  public AmiSelectorTerm {
    tags = tags == null ? Map.of() : Map.copyOf(tags);
  }

  /** A term without an SSM parameter. */
  public AmiSelectorTerm(String id, String name, String owner, Map<String, String> tags, String alias) {
    this(id, name, owner, tags, alias, null);
  }

  public static AmiSelectorTerm bySsmParameter(String parameter) {
    return new AmiSelectorTerm(null, null, null, Map.of(), null, parameter);
  }

  public static AmiSelectorTerm byId(String id) {
    return new AmiSelectorTerm(id, null, null, Map.of(), null);
  }
}

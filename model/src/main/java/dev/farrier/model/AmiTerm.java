package dev.farrier.model;

import java.util.Map;

/**
 * One EC2NodeClass {@code amiSelectorTerms} entry, as a fleet upgrade carries it: an {@code alias}; or an {@code id};
 * or an {@code ssmParameter}; or a {@code name} pattern with {@code owner} and {@code tags} ANDed.
 */
public record AmiTerm(String alias, String id, String name, String owner, Map<String, String> tags, String ssmParameter) {
  public AmiTerm {
    tags = tags == null || tags.isEmpty() ? null : Map.copyOf(tags);
  }

  /** A term without an SSM parameter. */
  public AmiTerm(String alias, String id, String name, String owner, Map<String, String> tags) {
    this(alias, id, name, owner, tags, null);
  }

  public static AmiTerm ofAlias(String alias) {
    return new AmiTerm(alias, null, null, null, null);
  }

  public static AmiTerm ofId(String id) {
    return new AmiTerm(null, id, null, null, null);
  }
}

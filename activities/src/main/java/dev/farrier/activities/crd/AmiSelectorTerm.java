package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * One {@code amiSelectorTerms} entry: an {@code id}; or an {@code ssmParameter} holding an image id; or {@code name}
 * (with {@code *} wildcards), {@code owner} and {@code tags} ANDed; or an {@code alias} ({@code family@version}), which
 * must be the only term.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record AmiSelectorTerm(String alias, String id, String name, String owner, Map<String, String> tags, String ssmParameter) {
  /** A term without an SSM parameter. */
  public AmiSelectorTerm(String alias, String id, String name, String owner, Map<String, String> tags) {
    this(alias, id, name, owner, tags, null);
  }
}

package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/** {@code spec.metadataOptions} of an EC2NodeClass: the instance metadata service as nodes see it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record MetadataOptions(String httpEndpoint, String httpProtocolIPv6, Long httpPutResponseHopLimit, String httpTokens) {
  /**
   * The API server's default (IMDSv2 required, one hop: pods without host networking cannot reach the node's
   * credentials).
   */
  public static final MetadataOptions DEFAULT = new MetadataOptions("enabled", "disabled", 1L, "required");
}

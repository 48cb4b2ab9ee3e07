package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/** {@code spec.template} of a NodePool: what every NodeClaim launched from it starts from. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record NodeClaimTemplate(TemplateMetadata metadata, NodeClaimTemplateSpec spec) {
  public TemplateMetadata metadataOrEmpty() {
    return metadata == null ? new TemplateMetadata(null, null) : metadata;
  }
}

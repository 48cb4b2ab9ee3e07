package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/** The labels and annotations a NodePool puts on its NodeClaims and nodes. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record TemplateMetadata(Map<String, String> labels, Map<String, String> annotations) {
  public Map<String, String> labelsOrEmpty() {
    return labels == null ? Map.of() : labels;
  }

  public Map<String, String> annotationsOrEmpty() {
    return annotations == null ? Map.of() : annotations;
  }
}

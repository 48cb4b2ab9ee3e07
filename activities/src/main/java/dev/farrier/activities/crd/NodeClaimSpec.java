package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Taint;
import java.util.List;

/** {@code spec} of a NodeClaim; immutable once created (the CRD rejects changes). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record NodeClaimSpec(
    List<RequirementWithMinValues> requirements,
    NodeClaimResources resources,
    List<Taint> taints,
    List<Taint> startupTaints,
    NodeClassReference nodeClassRef,
    String expireAfter,
    String terminationGracePeriod) {
  public List<RequirementWithMinValues> requirementsOrEmpty() {
    return requirements == null ? List.of() : requirements;
  }

  public List<Taint> taintsOrEmpty() {
    return taints == null ? List.of() : taints;
  }

  public List<Taint> startupTaintsOrEmpty() {
    return startupTaints == null ? List.of() : startupTaints;
  }
}
